import Foundation
import XCTest

@testable import Strata

/// Predicates at the edges of size: nesting past the parser's depth limit is refused with a positioned error (it
/// used to overflow the stack), nesting just below it works, and very long AND chains and IN lists answer
/// correctly (they used to take minutes: these sizes would not finish if either were quadratic again).
final class QueryLimitsTests: StaffTestCase {
    private var db: Database!
    private static let count = 3_000
    private let limit = PredicateParser.maximumDepth

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for index in 0..<Self.count {
                let fields: [String: Any] = [
                    "name": "n\(index)", "age": Self.age(index), "hired": index % 2 == 0, "salary": Double(index),
                    "started": Date(timeIntervalSince1970: Double(index)), "badge": UUID(),
                    "scores": Self.scores(index),
                ]
                db.create(Employee.self, value: fields)
                db.create(IndexedEmployee.self, value: fields)
            }
        }
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    private static func age(_ index: Int) -> Int { (index * 7) % 5_000 }
    private static func scores(_ index: Int) -> [Int] { [index % 50, 100 + index % 7] }

    /// The names of the objects `filter(format, arguments)` selects, on both models.
    private func names(_ format: String, _ arguments: [Any] = []) throws -> [Set<String>] {
        [
            Set(try db.objects(Employee.self).filter(format, arguments: arguments).map(\.name)),
            Set(try db.objects(IndexedEmployee.self).filter(format, arguments: arguments).map(\.name)),
        ]
    }

    /// The names `isIncluded` selects, once per model (what ``names(_:_:)`` returns).
    private func expected(_ isIncluded: (Int) -> Bool) -> [Set<String>] {
        Array(repeating: Set((0..<Self.count).filter(isIncluded).map { "n\($0)" }), count: 2)
    }

    /// `inner` inside `count` times `open` … `close`.
    private static func nested(_ count: Int, _ open: String, _ inner: String, _ close: String = "") -> String {
        String(repeating: open, count: count) + inner + String(repeating: close, count: count)
    }

    /// Asserts that `format` is refused at `offset` for nesting too deep.
    private func assertTooDeep(_ format: String, at offset: Int, line: UInt = #line) {
        XCTAssertThrowsError(try db.objects(Employee.self).filter(format), line: line) { error in
            guard case StrataError.invalidPredicate(_, let found, let message) = error else {
                return XCTFail("\(error)", line: line)
            }
            XCTAssertEqual(found, offset, line: line)
            XCTAssertTrue(message.contains("more than \(limit) levels deep"), message, line: line)
        }
    }

    // MARK: - Nesting

    func testParenthesesPastTheDepthLimitAreRefusedAtTheFirstOneTooDeep() {
        assertTooDeep(Self.nested(25_000, "(", "age > 1", ")"), at: limit)
        assertTooDeep(Self.nested(limit + 1, "(", "age > 1", ")"), at: limit)
    }

    func testNotsPastTheDepthLimitAreRefusedAtTheFirstOneTooDeep() {
        assertTooDeep(String(repeating: "NOT ", count: 15_000) + "age > 1", at: 4 * limit)
        assertTooDeep(String(repeating: "!", count: limit + 1) + "age > 1", at: limit)
    }

    func testListsPastTheDepthLimitAreRefusedAtTheFirstOneTooDeep() {
        let prefix = "age IN "
        assertTooDeep(
            prefix + String(repeating: "{", count: 20_000) + "1" + String(repeating: "}", count: 20_000),
            at: prefix.utf8.count + limit)
    }

    func testNestingKindsCountTogether() {
        let half = limit / 2
        let format = Self.nested(half + 1, "NOT (", "age > 1", ")")
        // Each `NOT (` (five characters) opens two levels: the NOT of the last pair is one too many.
        assertTooDeep(format, at: 5 * half)
    }

    func testNestingJustBelowTheDepthLimitWorks() throws {
        let parenthesized = Self.nested(limit, "(", "age < 700", ")")
        XCTAssertEqual(try names(parenthesized), expected { Self.age($0) < 700 })
        // An even number of NOTs is the predicate itself; an odd number its negation.
        let evenNots = String(repeating: "NOT ", count: limit) + "age < 700"
        XCTAssertEqual(try names(evenNots), expected { Self.age($0) < 700 })
        let oddNots = String(repeating: "NOT ", count: limit - 1) + "age < 700"
        XCTAssertEqual(try names(oddNots), expected { Self.age($0) >= 700 })
        // A list inside the deepest parentheses allowed.
        let list = Self.nested(limit - 1, "(", "age IN {0, 7, 14}", ")")
        XCTAssertEqual(try names(list), expected { [0, 7, 14].contains(Self.age($0)) })
        // Lists nested as deep as allowed parse; the binder then refuses a list inside a list, at its position.
        let nested = "age IN " + String(repeating: "{", count: limit) + "1" + String(repeating: "}", count: limit)
        XCTAssertThrowsError(try db.objects(Employee.self).filter(nested)) { error in
            guard case StrataError.invalidPredicate(_, _, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("may only hold constants"), message)
        }
    }

    func testNestingJustBelowTheDepthLimitFitsASmallThreadStack() throws {
        // 512 KiB is a secondary thread's stack on Apple platforms; the limit is chosen to fit it in a debug build.
        let url = directory.url.appendingPathComponent("small-stack.strata")
        let limit = self.limit
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var counts: [Int] = []
        nonisolated(unsafe) var failure: Error?
        let thread = Thread {
            defer { finished.signal() }
            do {
                let configuration = Configuration(schema: Staff.self).scratch(at: url)
                let db = try Database(configuration: configuration)
                try db.write {
                    for index in 0..<100 {
                        let fields: [String: Any] = [
                            "name": "n\(index)", "age": index, "started": Date(), "badge": UUID(),
                        ]
                        db.create(Employee.self, value: fields)
                    }
                }
                let people = db.objects(Employee.self)
                let deep = [
                    String(repeating: "(", count: limit) + "age < 50" + String(repeating: ")", count: limit),
                    String(repeating: "NOT ", count: limit) + "age < 50",
                    Self.nested(limit / 2, "NOT (", "mentor.age < 50 OR age < 50", ")"),
                ]
                counts = try deep.map { try people.filter($0).count }
            } catch {
                failure = error
            }
        }
        thread.stackSize = 512 * 1024
        thread.start()
        finished.wait()
        XCTAssertNil(failure)
        XCTAssertEqual(counts, [50, 50, 50])
    }

    // MARK: - Long chains and lists

    func testAHundredThousandTermAndChainAnswersCorrectly() throws {
        // Bounds on one column (merged into one range), and a condition on another column.
        var terms = (0..<50_000).map { "age >= \(-$0)" }
        terms += (0..<49_999).map { "age <= \(4_000 + $0)" }
        terms.append("hired == true")
        XCTAssertEqual(terms.count, 100_000)
        let chainOfAnd = terms.joined(separator: " AND ")
        XCTAssertEqual(
            try names(chainOfAnd), expected { $0 % 2 == 0 && Self.age($0) <= 4_000 })
        // Equalities on one column (merged into one hashed set).
        let chainOfOr = (0..<99_999).map { "age == \(-1 - $0)" }.joined(separator: " OR ") + " OR age == 7"
        XCTAssertEqual(try names(chainOfOr), expected { Self.age($0) == 7 })
    }

    func testInWithTenThousandValuesAnswersCorrectly() throws {
        let evenAges = (0..<10_000).map { $0 * 2 }
        XCTAssertEqual(try names("age IN %@", [evenAges]), expected { Self.age($0) % 2 == 0 })
        let someNames = (0..<10_000).map { "n\($0 * 3)" }
        XCTAssertEqual(try names("name IN %@", [someNames]), expected { $0 % 3 == 0 })
        // A to-many key path is checked object by object, against the same hashed list.
        let someScores = (0..<10_000).map { $0 * 5 + 100_000 } + [5, 104]
        XCTAssertEqual(
            try names("ANY scores IN %@", [someScores]),
            expected { Self.scores($0).contains(5) || Self.scores($0).contains(104) })
        // The same lists as literals, and negated.
        let literal = "age IN {" + evenAges.map(String.init).joined(separator: ", ") + "}"
        XCTAssertEqual(try names("NOT " + literal), expected { Self.age($0) % 2 != 0 })
    }

    func testInMatchesStringsByTheirBytesAndNumbersAcrossKinds() throws {
        // Precomposed and decomposed "é" are different strings to a query, in a list as in an equality.
        try db.write {
            db.create(Employee.self, value: ["name": "\u{E9}", "age": 1, "started": Date(), "badge": UUID()])
            db.create(IndexedEmployee.self, value: ["name": "\u{E9}", "age": 1, "started": Date(), "badge": UUID()])
        }
        XCTAssertEqual(try names("name IN %@", [["e\u{301}", "n1"]]), Array(repeating: ["n1"], count: 2))
        XCTAssertEqual(try names("name IN %@", [["\u{E9}", "n1"]]), Array(repeating: ["\u{E9}", "n1"], count: 2))
        // An int property compared with fractions and integers: 7.0 equals 7, 7.5 equals nothing.
        XCTAssertEqual(try names("age IN {7.0, 7.5}"), expected { Self.age($0) == 7 })
        XCTAssertEqual(try names("ANY scores IN {5.0, 3.5}"), expected { Self.scores($0).contains(5) })
    }
}

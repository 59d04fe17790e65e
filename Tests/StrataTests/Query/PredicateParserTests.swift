import Foundation
import XCTest

@testable import Strata

final class PredicateParserTests: XCTestCase {
    /// The tree of `text`, with its placeholders replaced by `arguments` as the binder sees them.
    private func parse(_ text: String, _ arguments: Any?...) throws -> PredicateNode {
        let parsed = try ParsedPredicate(parsing: text)
        return try parsed.arguments(arguments.map { $0 as Any }).substituting(parsed.node, predicate: text)
    }

    private func key(_ path: String, offset: Int = 0) -> PredicateOperand {
        .keyPath(root: .object, components: path.split(separator: ".").map(String.init), offset: offset)
    }

    private func assertError(
        _ text: String, _ arguments: [Any?] = [], offset expectedOffset: Int, containing fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try ParsedPredicate(parsing: text).arguments(arguments.map { $0 as Any }), file: file, line: line) { error in
            guard case StrataError.invalidPredicate(let predicate, let offset, let message) = error else {
                return XCTFail("expected invalidPredicate, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(predicate, text, file: file, line: line)
            XCTAssertEqual(offset, expectedOffset, "message: \(message)", file: file, line: line)
            XCTAssertTrue(message.contains(fragment), "'\(message)' lacks '\(fragment)'", file: file, line: line)
        }
    }

    func testComparisonWithArgumentsAndPrecedence() throws {
        let node = try parse("age >= %@ AND fullName BEGINSWITH[c] %@ OR NOT hired == true", 18, "a")
        guard case .or(let terms) = node, terms.count == 2, case .and(let both) = terms[0],
            case .not(.comparison(let hired)) = terms[1]
        else { return XCTFail("unexpected tree \(node)") }
        XCTAssertEqual(both.count, 2)
        guard case .comparison(let age) = both[0], case .comparison(let name) = both[1] else {
            return XCTFail("unexpected tree \(node)")
        }
        XCTAssertEqual(age.op, .greaterOrEqual)
        XCTAssertEqual(age.right, .value(.int(18)))
        XCTAssertEqual(name.op, .beginsWith)
        XCTAssertEqual(name.options, [.caseInsensitive])
        XCTAssertEqual(name.right, .value(.string("a")))
        XCTAssertEqual(hired.right, .value(.bool(true)))
    }

    func testParenthesesOverrideAndBeforeOr() throws {
        let node = try parse("(a == 1 OR b == 2) && c == 3")
        guard case .and(let terms) = node, case .or = terms[0] else { return XCTFail("unexpected tree \(node)") }
    }

    func testEveryOperatorSpelling() throws {
        let cases: [(String, ComparisonOperator)] = [
            ("==", .equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<", .less), ("<=", .lessOrEqual),
            ("=<", .lessOrEqual), (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
            ("BEGINSWITH", .beginsWith), ("endswith", .endsWith), ("CONTAINS", .contains), ("LIKE", .like),
        ]
        for (spelling, expected) in cases {
            guard case .comparison(let comparison) = try parse("name \(spelling) 'x'") else {
                return XCTFail(spelling)
            }
            XCTAssertEqual(comparison.op, expected, spelling)
        }
    }

    func testBetweenAndInTakeLists() throws {
        guard case .comparison(let between) = try parse("age BETWEEN {18, 65}") else { return XCTFail() }
        XCTAssertEqual(between.right, .list([.value(.int(18)), .value(.int(65))]))
        guard case .comparison(let viaArgument) = try parse("age BETWEEN %@", [1, 2]) else { return XCTFail() }
        XCTAssertEqual(viaArgument.right, .list([.value(.int(1)), .value(.int(2))]))
        guard case .comparison(let inList) = try parse("name IN {'a', \"b\"}") else { return XCTFail() }
        XCTAssertEqual(inList.op, .in)
        XCTAssertEqual(inList.right, .list([.value(.string("a")), .value(.string("b"))]))
        guard case .comparison(let inArgument) = try parse("id IN %@", [3, 4, 5]) else { return XCTFail() }
        XCTAssertEqual(inArgument.right, .value(.list([.int(3), .int(4), .int(5)])))
    }

    func testConstantsNilAndBooleans() throws {
        XCTAssertEqual(try parse("TRUEPREDICATE"), .constant(true))
        XCTAssertEqual(try parse("falsepredicate"), .constant(false))
        guard case .comparison(let isNil) = try parse("favourite == nil") else { return XCTFail() }
        XCTAssertEqual(isNil.right, .value(.null))
        guard case .comparison(let yes) = try parse("hired == YES") else { return XCTFail() }
        XCTAssertEqual(yes.right, .value(.bool(true)))
        guard case .comparison(let double) = try parse("price < -2.5e1") else { return XCTFail() }
        XCTAssertEqual(double.right, .value(.double(-25)))
    }

    func testKeyPathsAggregatesAndQuantifiers() throws {
        guard case .comparison(let link) = try parse("favourite.title == 'Dune'") else { return XCTFail() }
        XCTAssertEqual(link.left, key("favourite.title"))
        guard case .comparison(let count) = try parse("loans.@count > 2") else { return XCTFail() }
        XCTAssertEqual(count.left, .aggregate(root: .object, collection: ["loans"], function: .count, property: [], offset: 0))
        guard case .comparison(let sum) = try parse("loans.@sum.book.price >= 10") else { return XCTFail() }
        XCTAssertEqual(
            sum.left, .aggregate(root: .object, collection: ["loans"], function: .sum, property: ["book", "price"], offset: 0))
        guard case .comparison(let any) = try parse("ANY tags == 'sf'") else { return XCTFail() }
        XCTAssertEqual(any.quantifier, .anyElement)
        guard case .comparison(let none) = try parse("NONE loans.book.title CONTAINS[cd] 'é'") else { return XCTFail() }
        XCTAssertEqual(none.quantifier, .noElement)
        XCTAssertEqual(none.options, [.caseInsensitive, .diacriticInsensitive])
        guard case .comparison(let all) = try parse("ALL tags != 'x'") else { return XCTFail() }
        XCTAssertEqual(all.quantifier, .allElements)
    }

    func testSubqueryCount() throws {
        guard case .comparison(let comparison) = try parse("SUBQUERY(loans, $l, $l.book.price > 3 AND $l.days < 7).@count > 0")
        else { return XCTFail() }
        guard case .subqueryCount(_, let collection, let variable, .and(let inner), _) = comparison.left else {
            return XCTFail("\(comparison.left)")
        }
        XCTAssertEqual(collection, ["loans"])
        XCTAssertEqual(variable, "l")
        XCTAssertEqual(inner.count, 2)
    }

    func testKeyPathArgumentAndTypedArguments() throws {
        guard case .comparison(let comparison) = try parse("%K == %d", "favourite.title", 3) else { return XCTFail() }
        XCTAssertEqual(comparison.left, key("favourite.title"))
        XCTAssertEqual(comparison.right, .value(.int(3)))
        let date = Date(timeIntervalSince1970: 100)
        let uuid = UUID()
        guard case .and(let terms) = try parse("since > %@ AND id == %@ AND score == %f", date, uuid, 1.5),
            case .comparison(let first) = terms[0], case .comparison(let second) = terms[1],
            case .comparison(let third) = terms[2]
        else { return XCTFail() }
        XCTAssertEqual(first.right, .value(.date(date)))
        XCTAssertEqual(second.right, .value(.uuid(uuid)))
        XCTAssertEqual(third.right, .value(.double(1.5)))
    }

    func testUnicodeIdentifiersAndStrings() throws {
        guard case .comparison(let comparison) = try parse("prénom == 'Zoë 🚀'") else { return XCTFail() }
        XCTAssertEqual(comparison.left, key("prénom"))
        XCTAssertEqual(comparison.right, .value(.string("Zoë 🚀")))
    }

    // MARK: - Errors point at the offending token

    func testMalformedPredicatesNameTheTokenAndOffset() {
        assertError("age >", offset: 5, containing: "expected a property name or a value")
        assertError("age >> 3", offset: 5, containing: "expected a property name or a value, found '>'")
        assertError("age BEGINWITH 'a'", offset: 4, containing: "did you mean 'BEGINSWITH'")
        assertError("(age > 3", offset: 8, containing: "expected ')'")
        assertError("name == 'abc", offset: 8, containing: "unterminated string")
        assertError("age > 3 3", offset: 8, containing: "unexpected '3'")
        assertError("age BETWEEN {1}", offset: 4, containing: "BETWEEN needs two bounds")
        assertError("age > 3 AND", offset: 11, containing: "ends where a comparison was expected")
        assertError("name ==[x] 'a'", offset: 8, containing: "unknown comparison option 'x'")
        assertError("age BETWEEN[c] {1, 2}", offset: 4, containing: "apply only to string comparisons")
        assertError("loans.@median > 3", offset: 6, containing: "unknown collection operator '@median'")
        assertError("name MATCHES 'a.*'", offset: 5, containing: "MATCHES")
        assertError("age > # 3", offset: 6, containing: "unexpected character '#'")
        assertError("age > %x", offset: 6, containing: "unknown argument format '%x'")
        assertError("SUBQUERY(loans, l, l.x > 1).@count > 0", offset: 16, containing: "variable")
    }

    func testArgumentMismatchesAreErrors() {
        assertError("age > %@", [], offset: 6, containing: "more arguments than the 0 given")
        assertError("age > %@", [1, 2], offset: 8, containing: "2 arguments were given but the predicate uses 1")
        assertError("age > %d", ["x"], offset: 6, containing: "%d needs an integer")
        assertError("%K == 1", [3], offset: 0, containing: "%K needs a key path string")
        assertError("x == %@", [NSObject()], offset: 5, containing: "cannot be used in a query")
    }

    func testErrorDescriptionShowsACaretUnderTheToken() {
        let error = StrataError.invalidPredicate(predicate: "âge >> 3", offset: 6, message: "boom")
        XCTAssertEqual(error.description, "invalid predicate at offset 6: boom\n  âge >> 3\n       ^")
    }

    // MARK: - Folding and LIKE

    func testFoldingCoversUnicodeBeyondLatin() {
        let caseless = StringFolding(options: [.caseInsensitive])
        XCTAssertEqual(caseless.fold("STRASSE"), caseless.fold("straße"))
        XCTAssertEqual(caseless.fold("ΣΊΣΥΦΟΣ"), caseless.fold("σίσυφος"))
        XCTAssertEqual(caseless.fold("ﬁle"), caseless.fold("FILE"))
        XCTAssertNotEqual(caseless.fold("Crème"), caseless.fold("creme"))
        let both = StringFolding(options: [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(both.fold("Crème Brûlée"), both.fold("CREME BRULEE"))
        XCTAssertEqual(both.fold("Αθήνα"), both.fold("ΑΘΗΝΑ"))
        XCTAssertEqual(StringFolding(options: []).fold("Äb"), "Äb")
    }

    func testLikeWildcards() {
        XCTAssertTrue(LikePattern("a*c").matches("abbbc"))
        XCTAssertTrue(LikePattern("a*c").matches("ac"))
        XCTAssertTrue(LikePattern("a?c").matches("abc"))
        XCTAssertFalse(LikePattern("a?c").matches("ac"))
        XCTAssertTrue(LikePattern("*").matches(""))
        XCTAssertTrue(LikePattern("*é*").matches("café au lait"))
        XCTAssertFalse(LikePattern("a*b").matches("acbd"))
        XCTAssertTrue(LikePattern("a*b*c").matches("axxbyyc"))
    }
}

extension PredicateArguments {
    /// The whole tree with its placeholders replaced, as the binder replaces them comparison by comparison.
    fileprivate func substituting(_ node: PredicateNode, predicate: String) throws -> PredicateNode {
        switch node {
        case .constant: return node
        case .not(let inner): return .not(try substituting(inner, predicate: predicate))
        case .and(let terms): return .and(try terms.map { try substituting($0, predicate: predicate) })
        case .or(let terms): return .or(try terms.map { try substituting($0, predicate: predicate) })
        case .comparison(let comparison): return .comparison(try substituting(comparison, predicate: predicate))
        }
    }
}

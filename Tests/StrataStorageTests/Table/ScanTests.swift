import StrataStorage
import StrataTestSupport
import XCTest

final class ScanTests: XCTestCase {
    func testIntegerScansMatchBruteForceAtEveryWidth() throws {
        let comparisons: [ScanComparison] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        var random = SeededGenerator(seed: 21)
        for spread in [0, 1, 3, 15, 255, 65_535, 1 << 31, Int64.max] as [Int64] {
            let fixture = try TableFixture()
            let table = try fixture.catalog.createTable(named: "N")
            let value = try table.addColumn(named: "value", type: .value(.int), nullable: true)
            var model: [ObjectKey: Int64?] = [:]
            let base = Int64.random(in: -1000...1000, using: &random)
            for _ in 0..<1500 {
                let number: Int64? = Int.random(in: 0..<10, using: &random) == 0 ? nil : base &+ Int64.random(in: 0...spread, using: &random)
                model[try table.insert([(value, number.map { .int($0) } ?? .null)])] = number
            }
            try fixture.commit()
            let stored = try XCTUnwrap(fixture.catalog.table(named: "N"))
            let present = model.values.compactMap { $0 }
            let probes = [Int64.min, .max, base, base - 1, base &+ spread, present.randomElement(using: &random)!, 0]
            for comparison in comparisons {
                for probe in probes {
                    var hits = 0
                    try stored.forEachCluster { cluster in
                        hits += try cluster.intColumn(value).matches(comparison, probe).setCount
                        return true
                    }
                    let expected = present.filter { number in
                        switch comparison {
                        case .equal: return number == probe
                        case .notEqual: return number != probe
                        case .less: return number < probe
                        case .lessOrEqual: return number <= probe
                        case .greater: return number > probe
                        case .greaterOrEqual: return number >= probe
                        }
                    }.count
                    XCTAssertEqual(hits, expected, "\(comparison) \(probe) with spread \(spread)")
                }
            }
            for _ in 0..<20 {
                let low = [Int64.min, base - 1, base, present.randomElement(using: &random)!].randomElement(using: &random)!
                let high = [Int64.max, base, base &+ spread, present.randomElement(using: &random)!].randomElement(using: &random)!
                var hits = 0
                try stored.forEachCluster { cluster in
                    hits += try cluster.intColumn(value).matches(from: low, through: high).setCount
                    return true
                }
                XCTAssertEqual(hits, present.filter { low <= $0 && $0 <= high }.count, "\(low)...\(high) with spread \(spread)")
            }
        }
    }

    func testCombinedMasksCountLikeAWhereClause() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Employee")
        let age = try table.addColumn(named: "age", type: .value(.int))
        let hired = try table.addColumn(named: "hired", type: .value(.bool))
        let name = try table.addColumn(named: "name", type: .value(.string))
        let salary = try table.addColumn(named: "salary", type: .value(.double))
        for index in 0..<10_000 {
            try table.insert([(age, .int(Int64(index % 100))), (hired, .bool(index % 2 == 0)), (name, .string("name-\(index)")),
                              (salary, .double(Double(index) * 1.5))])
        }
        var count = 0
        var prefixed = 0
        var rich = 0
        // Scanning inside the write transaction sees the pending inserts.
        try table.forEachCluster { cluster in
            var mask = try cluster.intColumn(age).matches(.greater, 50)
            mask.formIntersection(try cluster.boolColumn(hired).matches(true))
            count += mask.setCount
            var third = try cluster.intColumn(age).matches(.greaterOrEqual, 20)
            third.formIntersection(try cluster.intColumn(age).matches(.less, 30))
            third.formIntersection(try cluster.stringColumn(name).matches(prefix: "name-1"))
            prefixed += third.setCount
            rich += try cluster.doubleColumn(salary).matches(.greaterOrEqual, 15_000).setCount
            return true
        }
        XCTAssertEqual(count, 2400)
        XCTAssertEqual(prefixed, (0..<10_000).filter { $0 % 100 >= 20 && $0 % 100 < 30 && "name-\($0)".hasPrefix("name-1") }.count)
        XCTAssertEqual(rich, 0)
        XCTAssertThrowsError(try table.forEachCluster { try $0.boolColumn(age).matches(true).setCount > 0 })
    }

    func testPrefixScanMatchesBruteForceWithNullsEmptyAndLongValues() throws {
        var random = SeededGenerator(seed: 34)
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "T")
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: true)
        var model: [ObjectKey: String?] = [:]
        let stems = ["", "a", "ab", "abc", "abd", "b", "name-1", "name-12", "ñame", "abcdefghijklmnopqrstuvwxyz"]
        for _ in 0..<1400 {
            var value: String? = stems.randomElement(using: &random)! + String(Int.random(in: 0..<50, using: &random))
            switch Int.random(in: 0..<10, using: &random) {
            case 0: value = nil
            case 1: value = ""
            case 2: value = "abc" + String(repeating: "z", count: 1500)  // kept in its own node
            default: break
            }
            model[try table.insert([(text, value.map { .string($0) } ?? .null)])] = value
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "T"))
        for prefix in ["", "a", "ab", "abc", "abcz", "abcdefghijklmnopqrstu", "name-1", "ñ", "zz"] {
            var hits = 0
            var hitsInEvenRows = 0
            var equal = 0
            try stored.forEachCluster { cluster in
                let strings = try cluster.stringColumn(text)
                hits += try strings.matches(prefix: prefix).setCount
                var even = RowMask(count: strings.count)
                for row in stride(from: 0, to: strings.count, by: 2) { even.set(row) }
                let evenHits = try strings.matches(prefix: Array(prefix.utf8), within: even)
                hitsInEvenRows += evenHits.setCount
                try evenHits.forEachSetRow { row in XCTAssertTrue(try strings.string(row)?.hasPrefix(prefix) ?? false) }
                equal += try strings.matches(equal: prefix).setCount
                return true
            }
            let values = model.values.compactMap { $0 }
            XCTAssertEqual(hits, values.filter { $0.utf8.starts(with: prefix.utf8) }.count, "prefix '\(prefix)'")
            XCTAssertEqual(equal, values.filter { $0 == prefix }.count, "equal '\(prefix)'")
            XCTAssertLessThanOrEqual(hitsInEvenRows, hits)
        }
    }

    func testRowMaskOperations() {
        var mask = RowMask(count: 70, filled: true)
        XCTAssertEqual(mask.setCount, 70)
        mask.invert()
        XCTAssertEqual(mask.setCount, 0)
        var other = RowMask(count: 70)
        other.formUnion(RowMask(count: 70, filled: true))
        other.subtract(RowMask(count: 70))
        var rows: [Int] = []
        other.forEachSetRow { rows.append($0) }
        XCTAssertEqual(rows, Array(0..<70))
    }
}

import StrataStorage
import StrataTestSupport
import XCTest

final class ColumnStorageTests: XCTestCase {
    private func widths(_ table: Table, _ column: ColumnKey) throws -> [Int] {
        var result: [Int] = []
        try table.forEachCluster { cluster in
            result.append(try cluster.intColumn(column).width)
            return true
        }
        return result
    }

    /// A change to one column rewrites its cluster with the other columns copied as stored: every value, null
    /// and long string of those columns must read back the same, across commits and a later insert.
    func testChangingOneColumnKeepsEveryOtherColumnOfItsCluster() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "People")
        let name = try table.addColumn(named: "name", type: .value(.string), nullable: true)
        let age = try table.addColumn(named: "age", type: .value(.int), nullable: true)
        let score = try table.addColumn(named: "score", type: .value(.double))
        let long = String(repeating: "x", count: 5000)
        func expectedName(_ row: Int) -> String? { row % 7 == 0 ? nil : row == 3 ? long : "name-\(row)" }
        func expectedAge(_ row: Int) -> Int64? { row % 5 == 0 ? nil : Int64(row * 3) }
        var keys: [ObjectKey] = []
        for row in 0..<300 {
            keys.append(try table.insert([
                (name, expectedName(row).map { .string($0) } ?? .null),
                (age, expectedAge(row).map { .int($0) } ?? .null),
                (score, .double(Double(row))),
            ]))
        }
        try fixture.commit()
        for round in 0..<3 {
            let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
            try people.set(keys[round * 10 + 1], column: score, to: .double(-1))
            try fixture.commit()
        }
        let people = try XCTUnwrap(fixture.catalog.table(named: "People"))
        let added = try people.insert([(name, .string("late")), (age, .int(1)), (score, .double(0.5))])
        try fixture.commit()
        let readCatalog = try fixture.reader()
        let reader = try XCTUnwrap(readCatalog.table(named: "People"))
        for (row, key) in keys.enumerated() {
            XCTAssertEqual(try reader.string(key, column: name), expectedName(row), "name of row \(row)")
            XCTAssertEqual(try reader.int(key, column: age), expectedAge(row), "age of row \(row)")
            let changed = row == 1 || row == 11 || row == 21
            XCTAssertEqual(try reader.double(key, column: score), changed ? -1 : Double(row), "score of row \(row)")
        }
        XCTAssertEqual(try reader.string(added, column: name), "late")
        XCTAssertEqual(try reader.count(), 301)
    }

    func testIntegerWidthGrowsWithValuesAndShrinksBackWhenTheClusterIsReencoded() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Numbers")
        let value = try table.addColumn(named: "value", type: .value(.int))
        let keys = try (0..<10).map { _ in try table.insert([(value, .int(5))]) }
        XCTAssertEqual(try widths(table, value), [0])
        try table.set(keys[3], column: value, to: .int(6))
        XCTAssertEqual(try widths(table, value), [1])
        try table.set(keys[4], column: value, to: .int(5 + 200))
        XCTAssertEqual(try widths(table, value), [8])
        try table.set(keys[5], column: value, to: .int(-70_000))
        XCTAssertEqual(try widths(table, value), [32])
        try table.set(keys[6], column: value, to: .int(.max))
        XCTAssertEqual(try widths(table, value), [64])
        try fixture.commit()
        let reopened = try XCTUnwrap(fixture.catalog.table(named: "Numbers"))
        XCTAssertEqual(try reopened.int(keys[6], column: value), .max)
        XCTAssertEqual(try reopened.int(keys[5], column: value), -70_000)
        XCTAssertEqual(try reopened.int(keys[4], column: value), 205)
        XCTAssertEqual(try reopened.int(keys[0], column: value), 5)
        // Values inside the stored frame are patched into the committed cluster, which keeps its frame...
        for key in keys[3...6] { try reopened.set(key, column: value, to: .int(5)) }
        XCTAssertEqual(try widths(reopened, value), [64])
        XCTAssertEqual(try keys.map { try reopened.int($0, column: value) }, Array(repeating: 5, count: 10))
        // ...until a change that re-encodes the cluster fits the frame to the values again.
        let added = try reopened.insert([(value, .int(5))])
        XCTAssertEqual(try widths(reopened, value), [0])
        XCTAssertEqual(try (keys + [added]).map { try reopened.int($0, column: value) }, Array(repeating: 5, count: 11))
    }

    func testMegabyteStringLivesInItsOwnNodeAndReadsBack() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Docs")
        let body = try table.addColumn(named: "body", type: .value(.string))
        let blob = try table.addColumn(named: "blob", type: .value(.binary))
        let text = String(repeating: "0123456789abcdé", count: 70_000)
        let bytes = (0..<1_100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let key = try table.insert([(body, .string(text)), (blob, .binary(bytes))])
        let small = try table.insert([(body, .string("short"))])
        try fixture.commit()
        let reader = try fixture.reader()
        let stored = try XCTUnwrap(reader.table(named: "Docs"))
        XCTAssertEqual(try stored.string(key, column: body), text)
        XCTAssertEqual(try stored.binary(key, column: blob), bytes)
        XCTAssertEqual(try stored.string(small, column: body), "short")
        var clusterSizes: [Int] = []
        try stored.forEachCluster { cluster in
            XCTAssertEqual(try cluster.stringColumn(body).bytes(0).count, text.utf8.count)
            clusterSizes.append(cluster.count)
            return true
        }
        XCTAssertEqual(clusterSizes, [2])
        XCTAssertTrue(fixture.space.committedRefs.contains { fixture.space.byteCount(of: $0)! >= text.utf8.count })
        XCTAssertTrue(fixture.space.committedRefs.allSatisfy { fixture.space.byteCount(of: $0)! < 2 * bytes.count })
        try fixture.catalog.table(named: "Docs")!.set(key, column: body, to: .string("now short"))
        try fixture.commit()
        XCTAssertFalse(fixture.space.committedRefs.contains { fixture.space.byteCount(of: $0)! == text.utf8.count },
                       "the replaced long value's node was not freed")
        try fixture.catalog.verify()
    }

    func testNullBitmapMarksOnlyNullRows() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Maybe")
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: true)
        let flag = try table.addColumn(named: "flag", type: .value(.bool), nullable: true)
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: true)
        var keys: [ObjectKey] = []
        for index in 0..<300 {
            let isNull = index % 3 == 0
            keys.append(try table.insert([(number, isNull ? .null : .int(Int64(index))), (flag, isNull ? .null : .bool(index % 2 == 0)),
                                          (text, isNull ? .null : .string(""))]))
        }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Maybe"))
        var (nulls, comparable, falses) = (0, 0, 0)
        try stored.forEachCluster { cluster in
            let numbers = try cluster.intColumn(number)
            let strings = try cluster.stringColumn(text)
            for row in 0..<cluster.count {
                let index = Int(cluster.key(at: row).rawValue)
                XCTAssertEqual(numbers.nulls.isNull(row), index % 3 == 0)
                XCTAssertEqual(try strings.string(row), index % 3 == 0 ? nil : "")
            }
            nulls += numbers.nulls.mask.setCount
            comparable += numbers.matches(.greaterOrEqual, .min).setCount
            falses += try cluster.boolColumn(flag).matches(false).setCount
            return true
        }
        XCTAssertEqual(nulls, 100)
        XCTAssertEqual(comparable, 200, "nulls never match a comparison")
        XCTAssertEqual(falses, 100)
        XCTAssertNil(try stored.int(keys[0], column: number))
        XCTAssertNil(try stored.bool(keys[3], column: flag))
        XCTAssertEqual(try stored.string(keys[1], column: text), "")
        try stored.set(keys[0], column: number, to: .int(-1))
        XCTAssertEqual(try stored.int(keys[0], column: number), -1)
        XCTAssertThrowsError(try stored.set(keys[0], column: table.column(named: "number")!.key, to: .string("x")))
    }

    func testClusterSplitsWhenFullAndMergesAfterMostRowsAreDeleted() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Rows")
        let value = try table.addColumn(named: "value", type: .value(.int))
        let label = try table.addColumn(named: "label", type: .value(.string))
        let keys = try (0..<5000).map { try table.insert([(value, .int(Int64($0) * 3)), (label, .string("row \($0)"))]) }
        try fixture.commit()
        func clusterSizes() throws -> [Int] {
            var sizes: [Int] = []
            try fixture.catalog.table(named: "Rows")!.forEachCluster { sizes.append($0.count); return true }
            return sizes
        }
        let filled = try clusterSizes()
        XCTAssertEqual(filled.reduce(0, +), 5000)
        // Clusters fill 16 KiB: about 1,000 of these small rows (ClusterSizeTests pins the byte limit).
        XCTAssertTrue(filled.dropLast().allSatisfy { $0 > 900 }, "sequential inserts fill clusters: \(filled)")
        let rows = try XCTUnwrap(fixture.catalog.table(named: "Rows"))
        // Inserting in the middle of a full cluster splits it in halves.
        _ = try rows.insert([(value, .int(-1))], key: ObjectKey(10_000))
        var random = SeededGenerator(seed: 3)
        var kept = Set(keys)
        for key in keys.shuffled(using: &random).prefix(4900) {
            try rows.delete(key)
            kept.remove(key)
        }
        try fixture.commit()
        let sizes = try clusterSizes()
        XCTAssertLessThanOrEqual(sizes.count, 2, "clusters merged: \(sizes)")
        XCTAssertEqual(sizes.reduce(0, +), kept.count + 1)
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Rows"))
        for key in kept { XCTAssertEqual(try stored.string(key, column: label), "row \(key.rawValue)") }
        XCTAssertEqual(try stored.keys(), kept.sorted() + [ObjectKey(10_000)])
        XCTAssertEqual(try stored.key(at: kept.count), ObjectKey(10_000))
        try fixture.catalog.verify()
        for key in kept { try stored.delete(key) }
        try stored.delete(ObjectKey(10_000))
        try fixture.commit()
        XCTAssertEqual(try fixture.catalog.table(named: "Rows")!.count(), 0)
        XCTAssertEqual(fixture.space.committedNodeCount, 1, "only the catalog node is left")
    }

    func testBadIntegerNodeBytesNeverReadOutOfBounds() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Damaged")
        let value = try table.addColumn(named: "value", type: .value(.int))
        let text = try table.addColumn(named: "text", type: .value(.string))
        let list = try table.addColumn(named: "list", type: .list(.string))
        for index in 0..<1500 {
            try table.insert([(value, .int(Int64(index * 7))), (text, .string(String(repeating: "x", count: index % 50))),
                              (list, .list([.string("a"), .string("\(index)")]))])
        }
        try fixture.commit()
        var random = SeededGenerator(seed: 11)
        var errors = 0
        for round in 0..<200 {
            let refs = fixture.space.committedRefs.sorted()
            let target = refs[Int.random(in: 0..<refs.count, using: &random)]
            var saved: [UInt8] = []
            fixture.space.damage(target) { bytes in
                saved = Array(bytes)
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    let offset = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[offset] = round % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : 0xFF
                }
            }
            do {
                let catalog = try fixture.reader()
                try catalog.verify()
                let damaged = try XCTUnwrap(catalog.table(named: "Damaged"))
                for key in try damaged.keys() {
                    _ = try damaged.value(key, column: value)
                    _ = try damaged.value(key, column: text)
                    _ = try damaged.value(key, column: list)
                }
                try damaged.forEachCluster { cluster in
                    _ = try cluster.intColumn(value).matches(.less, 100).setCount
                    _ = try cluster.stringColumn(text).matches(prefix: "xx")
                    return true
                }
            } catch is StrataError {
                errors += 1
            }
            fixture.space.damage(target) { bytes in bytes.copyBytes(from: saved) }
        }
        XCTAssertGreaterThan(errors, 50, "most damage is detected")
        try fixture.reader().verify()
    }

    /// Changing an object decodes its whole cluster, checking each string's extent in one pass over the end
    /// offsets: damaged offsets or external flags must end in an error, never in a read out of bounds.
    func testDamagedStringOffsetsFailAChangeInsteadOfCrashing() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Damaged")
        let value = try table.addColumn(named: "value", type: .value(.int))
        let text = try table.addColumn(named: "text", type: .value(.string))
        var keys: [ObjectKey] = []
        for index in 0..<1500 {
            keys.append(try table.insert([(value, .int(Int64(index))), (text, .string(String(repeating: "y", count: index % 40)))]))
        }
        try fixture.commit()
        var random = SeededGenerator(seed: 23)
        var errors = 0
        for round in 0..<150 {
            let refs = fixture.space.committedRefs.sorted()
            let target = refs[Int.random(in: 0..<refs.count, using: &random)]
            var saved: [UInt8] = []
            fixture.space.damage(target) { bytes in
                saved = Array(bytes)
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let offset = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[offset] = round % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : 0xFF
                }
            }
            do {
                try fixture.rollback()
                // Damage to the catalog's bytes can rename the table: the change then finds nothing to change.
                if let damaged = fixture.catalog.table(named: "Damaged") {
                    for key in stride(from: 0, to: keys.count, by: 100).map({ keys[$0] }) {
                        try damaged.set(key, column: value, to: .int(-1))
                    }
                    try fixture.catalog.flush()
                }
            } catch is StrataError {
                errors += 1
            }
            fixture.space.damage(target) { bytes in bytes.copyBytes(from: saved) }
        }
        try fixture.rollback()
        XCTAssertGreaterThan(errors, 20, "most damage is detected")
        try fixture.reader().verify()
    }
}

import StrataStorage
import StrataTestSupport
import XCTest

final class TableBasicsTests: XCTestCase {
    func testInsertedValuesReadBackAfterCommit() throws {
        let space = MemoryNodeSpace()
        var catalog = try Catalog(writer: space)
        let people = try catalog.createTable(named: "Person")
        let name = try people.addColumn(named: "name", type: .value(.string))
        let age = try people.addColumn(named: "age", type: .value(.int), nullable: true)
        var keys: [ObjectKey] = []
        for index in 0..<3000 {
            keys.append(try people.insert([(name, .string("name-\(index)")), (age, index % 7 == 0 ? .null : .int(Int64(index)))]))
        }
        try catalog.flush()
        space.commit()
        catalog = try Catalog(reader: space)
        let table = try XCTUnwrap(catalog.table(named: "Person"))
        XCTAssertEqual(try table.count(), 3000)
        XCTAssertEqual(try table.string(keys[1234], column: name), "name-1234")
        XCTAssertEqual(try table.int(keys[1234], column: age), 1234)
        XCTAssertNil(try table.int(keys[7], column: age))
        XCTAssertEqual(space.violations, [])
    }

    /// A cluster finds a key between the bounds its first and last keys allow (`ClusterView.row(of:)`): exact for
    /// runs of consecutive keys, a search for gapped ones; keys between, below and above the stored ones, and
    /// the extremes of `Int64`, are absent, before and after a commit and after deletions open gaps.
    func testKeysAreFoundInConsecutiveGappedAndExtremeRuns() throws {
        let space = MemoryNodeSpace()
        var catalog = try Catalog(writer: space)
        let table = try catalog.createTable(named: "Keyed")
        let value = try table.addColumn(named: "value", type: .value(.int))
        var stored: [Int64] = [Int64.min, Int64.min + 1, -5_000, -1, 0]
        stored += Array(1...2_000)                                 // consecutive: several full clusters
        stored += stride(from: 2_010, through: 12_000, by: 7)      // gapped
        stored += [Int64.max - 3, Int64.max - 1, Int64.max]
        for key in stored.shuffled() {
            try table.insert([(value, .int(key &* 3))], key: ObjectKey(key))
        }
        // Past `Int64.max` there is no next key: an insert without one is refused, not an overflow.
        XCTAssertThrowsError(try table.insert([(value, .int(1))]))
        let absent: [Int64] = [Int64.min + 2, -4_999, -2, 2_001, 2_011, 2_016, 11_998, 12_001, Int64.max - 2]

        func check(_ table: Table, _ present: [Int64], _ missing: [Int64], _ moment: String) throws {
            for key in present {
                XCTAssertEqual(try table.int(ObjectKey(key), column: value), key &* 3, "key \(key), \(moment)")
            }
            for key in missing {
                XCTAssertFalse(try table.contains(ObjectKey(key)), "key \(key) is absent, \(moment)")
            }
        }
        try check(table, stored, absent, "before the commit")
        try catalog.flush()
        space.commit()
        catalog = try Catalog(writer: space)
        let written = try XCTUnwrap(catalog.table(named: "Keyed"))
        try check(written, stored, absent, "after the commit")

        // Deleting every third key of the consecutive run leaves gaps inside clusters that began consecutive.
        let deleted = Array(stride(from: Int64(3), through: 2_000, by: 3))
        for key in deleted { try written.delete(ObjectKey(key)) }
        let deletedSet = Set(deleted)
        let remaining = stored.filter { !deletedSet.contains($0) }
        try check(written, remaining, absent + deleted, "after deletions")
        XCTAssertNoThrow(try catalog.verify())
        try catalog.flush()
        space.commit()

        // A read-only catalog remembers the last cluster and row it found: keys read in ascending order (as results
        // hand them out), then in random order, then absent ones between them, all go through that memory.
        let reading = try Catalog(reader: space)
        let read = try XCTUnwrap(reading.table(named: "Keyed"))
        try check(read, remaining.sorted(), [], "read in key order")
        try check(read, remaining.shuffled(), absent + deleted, "read in random order")
        let remainingSet = Set(remaining)
        for key in remaining.sorted() where key > Int64.min && !remainingSet.contains(key - 1) {
            XCTAssertFalse(try read.contains(ObjectKey(key - 1)), "key \(key - 1) is absent, read after \(key)")
            XCTAssertEqual(try read.int(ObjectKey(key), column: value), key &* 3)
        }
        XCTAssertEqual(space.violations, [])
    }
}

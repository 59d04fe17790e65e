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
}

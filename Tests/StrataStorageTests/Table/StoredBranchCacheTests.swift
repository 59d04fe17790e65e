import StrataStorage
import StrataTestSupport
import XCTest

/// A read transaction's trees keep the branches they read (`NodeTree.cacheStoredBranches()`): lookups in any
/// order, over trees three levels deep whose branches share the cache's slots, must find what a fresh read finds.
final class StoredBranchCacheTests: XCTestCase {
    func testLookupsInAnyOrderFindEveryObjectThroughKeptBranches() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Note")
        let text = try table.addColumn(named: "text", type: .value(.string), nullable: false)
        let number = try table.addColumn(named: "number", type: .value(.int), nullable: false)
        let index = try table.addIndex(on: [text])
        // Long strings: about a hundred rows a cluster and a hundred entries an index leaf, so both trees have a
        // root over several inner branches.
        let padding = String(repeating: "x", count: 100)
        var keys: [ObjectKey] = []
        for value in 0..<40_000 {
            keys.append(try table.insert([(text, .string("\(value)-\(padding)")), (number, .int(Int64(value)))]))
        }
        try fixture.commit()

        var generator = SystemRandomNumberGenerator()
        for round in 0..<2 {
            // A fresh read transaction's table each round: its caches start empty. The catalog is kept while its
            // table is used.
            let catalog = try fixture.reader()
            defer { withExtendedLifetime(catalog) {} }
            let stored = try XCTUnwrap(catalog.table(named: "Note"))
            for value in (0..<keys.count).shuffled(using: &generator) {
                let found = try stored.lookup(index, equal: [.string("\(value)-\(padding)")])
                XCTAssertEqual(found, [keys[value]], "round \(round), value \(value)")
                XCTAssertEqual(try stored.int(keys[value], column: number), Int64(value), "round \(round)")
            }
            XCTAssertEqual(try stored.lookup(index, equal: [.string("absent")]), [])
            XCTAssertEqual(try stored.count(), keys.count)
            XCTAssertEqual(try stored.keys(), keys)
        }
    }
}

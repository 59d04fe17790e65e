import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Opening and closing a store many times (as an app that opens its database per task does) gives back every
/// file descriptor and mapping it took.
final class ResourceLeakTests: PagerTestCase {
    func testOpeningAndClosingGivesBackDescriptorsAndMappings() throws {
        guard let before = Self.counts() else { throw XCTSkip("no /proc here to count descriptors and mappings") }
        let path = storePath()
        for round in 0..<300 {
            let store = try Store.open(path: path, options: StoreOptions(durability: round % 2 == 0 ? .full : .batched))
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try catalog.table(named: "T") ?? catalog.createTable(named: "T")
            let text = try table.column(named: "text")?.key ?? table.addColumn(named: "text", type: .value(.string))
            try table.insert([(text, .string(String(repeating: "x", count: round * 50)))])
            try catalog.flush()
            try writer.commit()
            let reader = try store.beginRead()
            XCTAssertEqual(try Catalog(reader: reader).table(named: "T")?.count(), round + 1)
            reader.end()
            store.close()
        }
        let after = try XCTUnwrap(Self.counts())
        XCTAssertLessThanOrEqual(after.descriptors, before.descriptors + 2, "descriptors leak")
        XCTAssertLessThanOrEqual(after.mappings, before.mappings + 8, "mappings leak")
    }

    /// Open file descriptors and memory mappings of this process, from `/proc`.
    private static func counts() -> (descriptors: Int, mappings: Int)? {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"),
              let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        else { return nil }
        return (descriptors.count, maps.split(separator: "\n").count)
    }
}

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// The smallest and the largest page size (2 KiB, where a 16 KiB cluster spans eight pages; 64 KiB, where a page
/// holds several clusters' worth) with tables, values longer than a page, indexes, reopening, verification and
/// crash images: what the other tests show at the default 4 KiB.
final class PageSizeTests: PagerTestCase {
    func testTablesWorkAtTheSmallestAndLargestPageSize() throws {
        for pageSize in [2048, 65536] {
            let path = storePath("pages\(pageSize)")
            var expected: [Int64: (String, [UInt8])] = [:]
            var random = SeededGenerator(seed: UInt64(pageSize))
            do {
                let store = try Store.open(path: path, options: StoreOptions(pageSize: pageSize))
                defer { store.close() }
                try write(store) { catalog in
                    let table = try catalog.createTable(named: "Note")
                    let id = try table.addColumn(named: "id", type: .value(.int))
                    let text = try table.addColumn(named: "text", type: .value(.string))
                    try table.addColumn(named: "blob", type: .value(.binary))
                    try table.setPrimaryKey(id)
                    try table.addIndex(on: [text])
                }
                for batch in 0..<3 {
                    try write(store) { catalog in
                        let table = try XCTUnwrap(catalog.table(named: "Note"))
                        let columns = try Self.columns(of: table)
                        for i in Int64(batch * 500)..<Int64(batch * 500 + 500) {
                            let row = Self.row(i, random: &random)
                            try table.insert([(columns.id, .int(i)), (columns.text, .string(row.0)), (columns.blob, .binary(row.1))])
                            expected[i] = row
                        }
                        // Delete some, change others: pages are freed and reused at this page size.
                        for _ in 0..<150 {
                            let victim = Int64.random(in: 0..<Int64(batch * 500 + 500), using: &random)
                            guard expected[victim] != nil, let key = try table.find(primaryKey: .int(victim)) else { continue }
                            if Bool.random(using: &random) {
                                try table.delete(key)
                                expected[victim] = nil
                            } else {
                                let row = Self.row(victim + 7, random: &random)
                                try table.set(key, column: columns.text, to: .string(row.0))
                                try table.set(key, column: columns.blob, to: .binary(row.1))
                                expected[victim] = row
                            }
                        }
                    }
                }
                try check(store, expected, pageSize: pageSize)
            }
            let reopened = try Store.open(path: path, options: StoreOptions(pageSize: pageSize))
            defer { reopened.close() }
            XCTAssertEqual(reopened.pageSize, pageSize)
            try check(reopened, expected, pageSize: pageSize)
        }
    }

    func testEveryCrashImageOpensAtTheSmallestAndLargestPageSize() throws {
        for pageSize in [2048, 65536] {
            let recording = RecordingStorage(path: "db")
            let capture = Capture()
            recording.onSync = { durable, pending in capture.lock.withLock { capture.events.append((durable, pending)) } }
            let store = try Store.open(path: "db", options: StoreOptions(durability: .full, pageSize: pageSize, io: recording))
            defer { store.close() }
            var random = SeededGenerator(seed: 5)
            var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
            for _ in 0..<(longTests ? 100 : 15) {
                let before = store.latestCommittedVersion
                capture.lock.withLock { capture.events.removeAll() }
                let writer = try store.beginWrite()
                states[writer.version] = try PatternTree.advance(writer, random: &random)
                try writer.commit()
                for event in capture.lock.withLock({ capture.events }) {
                    for image in CrashImage.images(durable: event.durable, pending: event.pending, count: 8, using: &random) {
                        try checkImage(image, oldest: before, newest: before + 1, states: states)
                    }
                }
            }
        }
    }

    private struct Columns { let id, text, blob: ColumnKey }

    private static func columns(of table: Table) throws -> Columns {
        Columns(
            id: try XCTUnwrap(table.column(named: "id")?.key), text: try XCTUnwrap(table.column(named: "text")?.key),
            blob: try XCTUnwrap(table.column(named: "blob")?.key))
    }

    /// Row `i`: a text up to 5,000 bytes; a blob that is usually short and sometimes longer than the largest page.
    private static func row(_ i: Int64, random: inout SeededGenerator) -> (String, [UInt8]) {
        let text = "note \(i) " + String(repeating: "abcdefgh", count: Int.random(in: 0...600, using: &random))
        let length = Int.random(in: 0...20, using: &random) == 0 ? Int.random(in: 60_000...150_000, using: &random)
            : Int.random(in: 0...300, using: &random)
        var blob = [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: length)
        for index in stride(from: 0, to: length, by: 997) { blob[index] = UInt8(truncatingIfNeeded: index / 997) }
        return (text, blob)
    }

    private func write(_ store: Store, _ body: (Catalog) throws -> Void) throws {
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        try body(catalog)
        try catalog.flush()
        try writer.commit()
    }

    private func check(_ store: Store, _ expected: [Int64: (String, [UInt8])], pageSize: Int) throws {
        _ = try store.verifyAll()
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        let table = try XCTUnwrap(catalog.table(named: "Note"))
        let columns = try Self.columns(of: table)
        XCTAssertEqual(try table.count(), expected.count, "page size \(pageSize)")
        for (id, row) in expected {
            let key = try XCTUnwrap(try table.find(primaryKey: .int(id)), "page size \(pageSize): \(id) missing")
            XCTAssertEqual(try table.string(key, column: columns.text), row.0, "page size \(pageSize): \(id)")
            XCTAssertEqual(try table.binary(key, column: columns.blob), row.1, "page size \(pageSize): \(id)")
        }
    }
}

/// What the recording storage's syncs reported, collected across its callback.
private final class Capture: @unchecked Sendable {
    let lock = NSLock()
    var events: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation])] = []
}

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Every state a power failure could leave during commits of owners inserted with one new embedded object each
/// (`Table.insert(_:into:embedding:)` with one `EmbeddedRow`: the embedded row placed with its backlink, its index
/// entry pending until the commit's merge) opens as a committed version whose tables, links, backlinks and index
/// verify (`verifyAll`), holding the objects that version committed.
final class EmbeddedInsertPowerLossTests: PagerTestCase {
    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation])] = []
    }

    func testCrashImagesOfOwnersWithEmbeddedObjectsOpenIntact() throws {
        let recording = RecordingStorage(path: "db")
        let capture = Capture()
        recording.onSync = { durable, pending in capture.lock.withLock { capture.events.append((durable, pending)) } }
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 41)
        var people = 0
        var counts: [UInt64: Int] = [store.latestCommittedVersion: 0]
        for round in 0..<(longTests ? 12 : 4) {
            let before = store.latestCommittedVersion
            capture.lock.withLock { capture.events.removeAll() }
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let person: Table
            let address: Table
            if let existing = catalog.table(named: "Person"), let owned = catalog.table(named: "Address") {
                (person, address) = (existing, owned)
            } else {
                person = try catalog.createTable(named: "Person")
                address = try catalog.createTable(named: "Address")
                try address.setEmbedded(true)
                _ = try person.addColumn(named: "name", type: .value(.string))
                _ = try address.addColumn(named: "street", type: .value(.string))
                let city = try address.addColumn(named: "city", type: .value(.string))
                _ = try address.addIndex(on: [city])
                _ = try person.addColumn(named: "home", type: .value(.link), target: address.key)
            }
            let name = try XCTUnwrap(person.column(named: "name")).key
            let home = try XCTUnwrap(person.column(named: "home")).key
            let street = try XCTUnwrap(address.column(named: "street")).key
            let city = try XCTUnwrap(address.column(named: "city")).key
            // Enough people to fill several clusters of each table per commit; some rounds delete a few owners,
            // which deletes their embedded objects.
            let added = Int.random(in: 200...900, using: &random)
            var owners: [ObjectKey] = []
            for number in 0..<added {
                let item = EmbeddedRow(
                    link: home,
                    values: [.string("\(round)-\(number) Long Street Name"), .string("city-\(number % 13)")],
                    columns: [street, city])
                owners.append(try person.insert([.string("p\(number)")], into: [name], embedding: item).owner)
            }
            people += added
            if round.isMultiple(of: 2) {
                for owner in owners.shuffled(using: &random).prefix(10) { try person.delete(owner) }
                people -= 10
            }
            try catalog.flush()
            try writer.commit()
            counts[store.latestCommittedVersion] = people * 2
            for event in capture.lock.withLock({ capture.events }) {
                let images = CrashImage.images(
                    durable: event.durable, pending: event.pending, count: 4, using: &random)
                for image in images {
                    let storage = MemoryStorage(capacity: 1 << 28)
                    try storage.setContents(image, ofFile: "db")
                    let crashed = try Store.open(path: "db", options: StoreOptions(io: storage))
                    defer { crashed.close() }
                    let report = try crashed.verifyAll()
                    XCTAssertTrue(report.version == before || report.version == before + 1, "version \(report.version)")
                    XCTAssertEqual(report.objects, counts[report.version])
                }
            }
        }
    }
}

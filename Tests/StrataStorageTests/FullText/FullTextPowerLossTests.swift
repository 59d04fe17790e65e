import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Every state a power failure could leave during commits that change a posting-block full-text index opens as a
/// committed version whose index matches its objects' text exactly (`verifyAll` recomputes every posting), with
/// the objects that version committed.
final class FullTextPowerLossTests: PagerTestCase {
    private final class Capture: @unchecked Sendable {
        let lock = NSLock()
        var events: [(durable: [UInt8], pending: [RecordingStorage.PendingOperation])] = []
    }

    private static let words = ["alpha", "beta", "gamma", "délta", "数据库", "Ωmega", "eta"]

    func testCrashImagesOfFullTextCommitsOpenWithAnIndexThatMatchesTheText() throws {
        let recording = RecordingStorage(path: "db")
        let capture = Capture()
        recording.onSync = { durable, pending in capture.lock.withLock { capture.events.append((durable, pending)) } }
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        var random = SeededGenerator(seed: 29)
        var keys: [ObjectKey] = []
        var counts: [UInt64: Int] = [store.latestCommittedVersion: 0]
        for _ in 0..<(longTests ? 40 : 10) {
            let before = store.latestCommittedVersion
            capture.lock.withLock { capture.events.removeAll() }
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            var table: Table
            if let existing = catalog.table(named: "Note") {
                table = existing
            } else {
                table = try catalog.createTable(named: "Note")
                let column = try table.addColumn(named: "body", type: .value(.string), nullable: true)
                try table.addFullTextIndex(on: column)
            }
            let body = try XCTUnwrap(table.column(named: "body")).key
            func text() -> StorageValue {
                let count = Int.random(in: 0...10, using: &random)
                return .string(
                    (0..<count).map { _ in Self.words.randomElement(using: &random)! }.joined(separator: " "))
            }
            // Enough objects that the common words span blocks; updates and deletes in the middle of them.
            for _ in 0..<90 { keys.append(try table.insert([(body, text())])) }
            for key in keys.shuffled(using: &random).prefix(keys.count / 8) {
                if Bool.random(using: &random) {
                    try table.delete(key)
                    keys.removeAll { $0 == key }
                } else {
                    try table.set(key, column: body, to: text())
                }
            }
            try catalog.flush()
            try writer.commit()
            counts[store.latestCommittedVersion] = keys.count
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

import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A sync costs about as much again for each separate range of the file it waits for, so a one-value commit keeps
/// the nodes every commit rewrites (the catalog, the changed tree's root, the commit record and the free-list node)
/// side by side: written as one range, commit after commit (`NodePlacement.withCommitNodes`).
final class CommitLayoutTests: PagerTestCase {
    /// The written ranges of the pending operations, adjacent writes joined, in file order.
    private func ranges(_ operations: [RecordingStorage.PendingOperation]) -> [Range<UInt64>] {
        var ranges: [Range<UInt64>] = []
        for case .write(let offset, let bytes) in operations {
            ranges.append(offset..<offset + UInt64(bytes.count))
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var joined: [Range<UInt64>] = []
        for range in ranges {
            if let last = joined.last, last.upperBound >= range.lowerBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }

    func testOneValueCommitsWriteTheirCommitNodesAsOneRange() throws {
        let recording = RecordingStorage(path: "db")
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        var table: TableKey!
        var amount: ColumnKey!
        var keys: [ObjectKey] = []
        do {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let created = try catalog.createTable(named: "Account")
            amount = try created.addColumn(named: "amount", type: .value(.double))
            let note = try created.addColumn(named: "note", type: .value(.string))
            for index in 0..<60_000 {
                keys.append(try created.insert([(amount, .double(Double(index))), (note, .string("note \(index)"))]))
            }
            table = created.key
            try catalog.flush()
            try writer.commit()
        }
        var random = SeededGenerator(seed: 31)
        for round in 0..<40 {
            recording.onSync = nil
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let accounts = try XCTUnwrap(catalog.table(table))
            try accounts.set(keys[Int.random(in: 0..<keys.count, using: &random)], column: amount, to: .double(Double(round)))
            try catalog.flush()
            let treeRoot = accounts.tree.storedRoot
            let pending = Capture()
            recording.onSync = { _, operations in pending.lock.withLock { pending.operations = operations } }
            try writer.commit()
            let meta = try XCTUnwrap(store.lockFile.current.meta)
            let written = ranges(pending.lock.withLock { pending.operations })
            // The first commits move these nodes next to each other; from then on they stay so.
            guard round >= 2 else { continue }
            let pageSize = UInt64(store.pageSize)
            let commitNodes = [("catalog", meta.root), ("tree root", treeRoot), ("commit record", meta.commitRecord),
                               ("free list", meta.freeList)]
            let holding = commitNodes.map { name, ref in
                (name, written.firstIndex { $0.contains(ref.rawValue * pageSize) })
            }
            for (name, index) in holding { XCTAssertNotNil(index, "commit \(round): the \(name) was not written") }
            XCTAssertEqual(Set(holding.compactMap(\.1)).count, 1,
                           "commit \(round): the commit's nodes were written in separate ranges: \(holding), \(written)")
        }
        _ = try store.verifyAll()
    }
}

/// The operations of the last sync, set from the recording storage's callback.
private final class Capture: @unchecked Sendable {
    let lock = NSLock()
    var operations: [RecordingStorage.PendingOperation] = []
}

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

    /// Commits an `Account` table of `count` objects, each an amount (its index) and `note(index)`.
    private func fillAccounts(_ store: Store, count: Int, note: (Int) -> String) throws
        -> (table: TableKey, amount: ColumnKey, keys: [ObjectKey])
    {
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let created = try catalog.createTable(named: "Account")
        let amount = try created.addColumn(named: "amount", type: .value(.double))
        let noteColumn = try created.addColumn(named: "note", type: .value(.string))
        var keys: [ObjectKey] = []
        for index in 0..<count {
            keys.append(try created.insert([(amount, .double(Double(index))), (noteColumn, .string(note(index)))]))
        }
        try catalog.flush()
        try writer.commit()
        return (created.key, amount, keys)
    }

    func testOneValueCommitsWriteTheirCommitNodesAsOneRange() throws {
        let recording = RecordingStorage(path: "db")
        let store = try Store.open(path: "db", options: StoreOptions(durability: .full, io: recording))
        defer { store.close() }
        let (table, amount, keys) = try fillAccounts(store, count: 60_000) { "note \($0)" }
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
                (name, written.firstIndex { $0.contains(ref.page * pageSize) })
            }
            for (name, index) in holding { XCTAssertNotNil(index, "commit \(round): the \(name) was not written") }
            XCTAssertEqual(Set(holding.compactMap(\.1)).count, 1,
                           "commit \(round): the commit's nodes were written in separate ranges: \(holding), \(written)")
        }
        _ = try store.verifyAll()
    }

    /// A write that covers part of a page the page cache does not hold makes the kernel read the page first: every
    /// node goes to the file as whole pages, zero-padded, whether alone or joined with its neighbours, large or
    /// small, spilled or committed, encrypted or not. Only page 0's meta slots are written in part.
    func testNodesAreWrittenAsWholePages() throws {
        for encrypted in [false, true] {
            let recording = RecordingStorage(path: "db")
            let writes = Capture()
            recording.onSync = { _, operations in writes.lock.withLock { writes.operations += operations } }
            var options = StoreOptions(durability: .full, io: recording)
            options.encryptionKey = encrypted ? Array(repeating: 7, count: 64) : nil
            options.spillThreshold = 256 << 10
            let store = try Store.open(path: "db", options: options)
            defer { store.close() }
            // Every hundredth note is long enough for a node of its own (several pages, the last part full).
            let (table, amount, keys) = try fillAccounts(store, count: 20_000) { index in
                index % 100 == 0 ? String(repeating: "n", count: 5_000 + index) : "note \(index)"
            }
            for round in 0..<20 {
                let writer = try store.beginWrite()
                let catalog = try Catalog(writer: writer)
                let accounts = try XCTUnwrap(catalog.table(table))
                try accounts.set(keys[round * 997 % keys.count], column: amount, to: .double(-Double(round)))
                try catalog.flush()
                try writer.commit()
            }
            let pageSize = UInt64(store.pageSize)
            var nodeWrites = 0
            for case .write(let offset, let bytes) in writes.lock.withLock({ writes.operations }) where offset >= pageSize {
                nodeWrites += 1
                XCTAssertEqual(offset % pageSize, 0, "encrypted \(encrypted): a write starts inside page \(offset / pageSize)")
                XCTAssertEqual(UInt64(bytes.count) % pageSize, 0,
                               "encrypted \(encrypted): a write at page \(offset / pageSize) of \(bytes.count) bytes ends inside a page")
            }
            XCTAssertGreaterThan(nodeWrites, 40, "encrypted \(encrypted)")
            _ = try store.verifyAll()
        }
    }
}

/// The operations of the last sync, set from the recording storage's callback.
private final class Capture: @unchecked Sendable {
    let lock = NSLock()
    var operations: [RecordingStorage.PendingOperation] = []
}

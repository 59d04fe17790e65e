import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Random allocate / modify / free / commit / rollback / reopen / pinned-reader sequences, checked against a
/// plain model after every commit, rollback and reopen, with `verify()` after every commit.
final class PagerModelTests: PagerTestCase {
    func testRandomOperationsMatchModelInMemory() throws {
        let storage = MemoryStorage()
        try runModel(seed: 11, operations: longTests ? 50_000 : 5_000) {
            try Store.open(path: "model", options: StoreOptions(durability: .full, io: storage))
        }
    }

    func testRandomOperationsMatchModelOnDiskWithBatchedSyncs() throws {
        let path = storePath()
        try runModel(seed: 12, operations: longTests ? 20_000 : 1_500) {
            var options = StoreOptions(durability: .batched)
            options.batchInterval = 0.005
            return try Store.open(path: path, options: options)
        }
    }

    func testRandomOperationsMatchModelWithSmallPages() throws {
        let storage = MemoryStorage()
        try runModel(seed: 13, operations: longTests ? 20_000 : 2_500) {
            try Store.open(path: "small", options: StoreOptions(durability: .none, pageSize: 2048, io: storage))
        }
    }

    private func runModel(seed: UInt64, operations: Int, open: () throws -> Store) throws {
        var random = SeededGenerator(seed: seed)
        var store = try open()
        var committed = PatternTree.State()
        var version: UInt64 = 1
        var pinned: [(ReadTransaction, PatternTree.State)] = []
        var nextSeed: UInt64 = 1
        var done = 0
        while done < operations {
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                // Reopen: every reader ends first (closing with readers open is allowed but defers the close).
                pinned.removeAll()
                store.close()
                store = try open()
                let reader = try store.beginRead()
                XCTAssertEqual(reader.version, version, "seed \(seed): reopen lost versions")
                XCTAssertEqual(try PatternTree.read(reader), committed, "seed \(seed): reopen changed content")
                reader.end()
            case 1...3:
                pinned.append((try store.beginRead(), committed))
            case 4...5 where !pinned.isEmpty:
                let (reader, expected) = pinned.remove(at: Int.random(in: 0..<pinned.count, using: &random))
                XCTAssertEqual(try PatternTree.read(reader), expected, "seed \(seed): a pinned snapshot changed")
                reader.end()
            default:
                let writer = try store.beginWrite()
                var working = committed
                var dirty: Set<NodeRef> = []
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    done += 1
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0...1 where working.children.count < 30:
                        let child = try PatternTree.writeChild(
                            seed: nextSeed, length: PatternTree.randomLength(&random), in: writer)
                        nextSeed += 1
                        working.children.append(child)
                        dirty.insert(child.ref)
                    case 2 where !working.children.isEmpty:
                        let removed = working.children.remove(at: Int.random(in: 0..<working.children.count, using: &random))
                        writer.free(removed.ref)
                        dirty.remove(removed.ref)
                    case 3 where !dirty.isEmpty:
                        // Dirty nodes may change in place.
                        let index = working.children.firstIndex { dirty.contains($0.ref) }!
                        let buffer = try XCTUnwrap(writer.writableIfDirty(working.children[index].ref))
                        PatternTree.fill(buffer, seed: nextSeed)
                        working.children[index].seed = nextSeed
                        nextSeed += 1
                    case 4:
                        // Scratch space: allocated and freed in one transaction, reusable at once.
                        let scratch = try PatternTree.writeChild(seed: 0, length: PatternTree.randomLength(&random), in: writer)
                        writer.free(scratch.ref)
                    default:
                        if let child = working.children.first(where: { !dirty.contains($0.ref) }) {
                            XCTAssertNil(writer.writableIfDirty(child.ref))
                            try PatternTree.check(child, in: writer)
                        }
                    }
                }
                working.step += 1
                try PatternTree.writeRoot(working, in: writer)
                switch Int.random(in: 0..<10, using: &random) {
                case 0...6:
                    try writer.commit()
                    committed = working
                    version += 1
                    let (readVersion, state) = try checkedState(store)
                    XCTAssertEqual(readVersion, version, "seed \(seed)")
                    XCTAssertEqual(state, committed, "seed \(seed): committed content differs from the model")
                case 7...8:
                    writer.rollback()
                    let reader = try store.beginRead()
                    XCTAssertEqual(try PatternTree.read(reader), committed, "seed \(seed): rollback changed content")
                    reader.end()
                default:
                    break  // released: rolls back
                }
            }
        }
        for (reader, expected) in pinned { XCTAssertEqual(try PatternTree.read(reader), expected) }
        pinned.removeAll()
        try store.verify(tableNodes: PatternTree.visit)
        store.close()
    }
}

import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `allocate(copying:)` skips the zero-fill of a node it is about to overwrite: the copy must still hold exactly
/// the source's bytes, whatever the memory held before, and commit, check and reopen like any node.
final class CopyAllocationTests: PagerTestCase {
    /// The store's one table node is the root: what `verify` walks.
    private func verifyRootOnly(_ store: Store) throws {
        try store.verify { reader, visit in if !reader.root.isNone { visit(reader.root) } }
    }

    private func pattern(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    func testCopyOfACommittedNodeHoldsItsBytesAfterCommitAndReopen() throws {
        let path = storePath()
        // Lengths on both sides of page boundaries, so copies end mid-page and at a page's end.
        let lengths = [1, 100, 4096 - 32, 4096 - 31, 14_000, 3 * 4096]
        for (index, length) in lengths.enumerated() {
            let source = pattern(length, seed: UInt8(index))
            do {
                let store = try Store.open(path: path)
                defer { store.close() }
                var writer = try store.beginWrite()
                let (original, payload) = try writer.allocate(byteCount: length)
                payload.copyBytes(from: source)
                let old = writer.root
                writer.root = original
                if !old.isNone { writer.free(old) }
                try writer.commit()

                writer = try store.beginWrite()
                // A dirty node of the same size filled with 0xFF and freed: its heap memory is the likeliest to
                // come back for the copy, and none of it may show through.
                let (scratch, scratchPayload) = try writer.allocate(byteCount: length)
                scratchPayload.initializeMemory(as: UInt8.self, repeating: 0xFF)
                writer.free(scratch)
                let (copy, copied) = try writer.allocate(copying: try writer.read(original))
                XCTAssertEqual(Array(copied), source)
                writer.root = copy
                writer.free(original)
                try writer.commit()
                try verifyRootOnly(store)
            }
            let store = try Store.open(path: path)
            defer { store.close() }
            let reader = try store.beginRead()
            defer { reader.end() }
            XCTAssertEqual(Array(try reader.read(reader.root)), source, "a copy of \(length) bytes changed after reopening")
            try verifyRootOnly(store)
        }
    }

    func testCopyOfASpilledNodeHoldsItsBytes() throws {
        var options = StoreOptions(durability: .full)
        options.spillThreshold = 64 << 10
        let store = try Store.open(path: storePath(), options: options)
        defer { store.close() }
        let writer = try store.beginWrite()
        let source = pattern(9_000, seed: 7)
        let (first, payload) = try writer.allocate(byteCount: source.count)
        payload.copyBytes(from: source)
        var filler: [NodeRef] = []
        while writer.dirty[first.page]?.spilledChecksum == nil, filler.count < 1_000 {
            let (ref, bytes) = try writer.allocate(byteCount: 8_000)
            bytes.initializeMemory(as: UInt8.self, repeating: 0xEE)
            filler.append(ref)
        }
        XCTAssertNotNil(writer.dirty[first.page]?.spilledChecksum, "the first node should have been spilled")
        let (copy, copied) = try writer.allocate(copying: try writer.read(first))
        XCTAssertEqual(Array(copied), source)
        for ref in filler { writer.free(ref) }
        writer.free(first)
        writer.root = copy
        try writer.commit()
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertEqual(Array(try reader.read(reader.root)), source)
        try verifyRootOnly(store)
    }

    func testCopyOfNoBytesIsAnEmptyNode() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        let writer = try store.beginWrite()
        let (copy, copied) = try writer.allocate(copying: UnsafeRawBufferPointer(start: nil, count: 0))
        XCTAssertEqual(copied.count, 0)
        writer.root = copy
        try writer.commit()
        let reader = try store.beginRead()
        defer { reader.end() }
        XCTAssertEqual(try reader.read(reader.root).count, 0)
        try verifyRootOnly(store)
    }
}

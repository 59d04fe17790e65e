import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// The write transaction's `NodeArena`: chunks handed out again without a system call, zero-filled when asked,
/// large nodes mapped on their own; a large transaction's arena stays a few regions however many nodes it
/// allocates, frees and spills, and every node reads back.
final class NodeArenaTests: PagerTestCase {
    private let threshold = 64 << 10

    func testChunkGivenBackIsHandedOutAgainZeroFilled() throws {
        let arena = NodeArena(pageSize: 4096)
        let first = try XCTUnwrap(arena.take(pages: 2, usedBytes: 5000, zeroed: true))
        XCTAssertEqual(Int(bitPattern: first) % 4096, 0, "nodes are page-aligned")
        first.initializeMemory(as: UInt8.self, repeating: 0xAB, count: 8192)
        arena.giveBack(first, pages: 2, isFileView: false)
        XCTAssertEqual(arena.freeChunkCount, 1)
        let again = try XCTUnwrap(arena.take(pages: 2, usedBytes: 5000, zeroed: true))
        XCTAssertEqual(again, first, "a chunk of the same size comes back first")
        XCTAssertEqual(arena.freeChunkCount, 0)
        let bytes = UnsafeRawBufferPointer(start: again, count: 5000)
        XCTAssertTrue(bytes.allSatisfy { $0 == 0 }, "a reused chunk is zero-filled up to the used bytes")
        // Not zeroed: only the header is cleared, for a caller that overwrites the rest.
        again.initializeMemory(as: UInt8.self, repeating: 0xCD, count: 8192)
        arena.giveBack(again, pages: 2, isFileView: false)
        let unzeroed = try XCTUnwrap(arena.take(pages: 2, usedBytes: 5000, zeroed: false))
        XCTAssertTrue(UnsafeRawBufferPointer(start: unzeroed, count: NodeHeader.byteCount).allSatisfy { $0 == 0 })
        XCTAssertEqual(unzeroed.load(fromByteOffset: NodeHeader.byteCount, as: UInt8.self), 0xCD)
        XCTAssertEqual(arena.mappedBytes, NodeArena.regionBytes, "one region served every node")
        arena.unmapAll()
        XCTAssertEqual(arena.mappedBytes, 0)
    }

    func testChunksOfOtherSizesAndLargeNodes() throws {
        let arena = NodeArena(pageSize: 4096)
        let one = try XCTUnwrap(arena.take(pages: 1, usedBytes: 100, zeroed: true))
        arena.giveBack(one, pages: 1, isFileView: false)
        let three = try XCTUnwrap(arena.take(pages: 3, usedBytes: 100, zeroed: true))
        XCTAssertNotEqual(three, one, "a one-page chunk is not handed out for three pages")
        let pages = UInt64(NodeArena.largestChunkPages + 1)
        let large = try XCTUnwrap(arena.take(pages: pages, usedBytes: 100, zeroed: true))
        XCTAssertEqual(arena.mappedBytes, NodeArena.regionBytes + Int(pages) * 4096, "a large node is mapped alone")
        large.initializeMemory(as: UInt8.self, repeating: 1, count: Int(pages) * 4096)
        arena.giveBack(large, pages: pages, isFileView: false)
        XCTAssertEqual(arena.mappedBytes, NodeArena.regionBytes, "and unmapped when given back")
        // More than a region's worth of live nodes maps another region.
        var held: [UnsafeMutableRawPointer] = []
        for _ in 0..<(NodeArena.regionBytes / (4 * 4096) + 1) {
            held.append(try XCTUnwrap(arena.take(pages: 4, usedBytes: 16_000, zeroed: true)))
        }
        XCTAssertEqual(Set(held).count, held.count)
        XCTAssertEqual(arena.mappedBytes, 2 * NodeArena.regionBytes)
    }

    func testLargeTransactionReusesItsArenaAndReadsEveryNodeBack() throws {
        var options = StoreOptions(durability: .none)
        options.spillThreshold = threshold
        let store = try Store.open(path: storePath(), options: options)
        defer { store.close() }
        let writer = try store.beginWrite()
        var random = SeededGenerator(seed: 41)
        var kept: [PatternTree.Child] = []
        // 3,000 nodes of up to 12 KB (about 20 MB), most freed soon after: a node per mapping would map and unmap
        // each; the arena keeps handing the same chunks out.
        for index in 0..<3_000 {
            let child = try PatternTree.writeChild(
                seed: UInt64(index), length: PatternTree.randomLength(&random), in: writer)
            if index % 4 == 0 {
                kept.append(child)
                // Read some back at once: those are handed out, and spill as views of the file.
                if index % 8 == 0 { try PatternTree.check(child, in: writer) }
            } else {
                writer.free(child.ref)
            }
        }
        let arena = try XCTUnwrap(writer.arena, "a transaction this large takes nodes from its arena")
        XCTAssertLessThanOrEqual(arena.mappedBytes, 4 * NodeArena.regionBytes, "chunks are reused, not mapped anew")
        let spilled = writer.dirty.values.filter { $0.spilledChecksum != nil }
        XCTAssertTrue(spilled.contains { $0.isReleased }, "spilled nodes never read go back to the arena")
        XCTAssertTrue(spilled.contains { !$0.isReleased && $0.isHandedOut }, "read ones stay where they were read")
        for child in kept { try PatternTree.check(child, in: writer) }
        // Freeing spilled nodes (views of the file or given back already) leaves the rest readable.
        for child in kept.prefix(100) { writer.free(child.ref) }
        kept.removeFirst(100)
        for index in 0..<200 {
            kept.append(try PatternTree.writeChild(seed: 10_000 + UInt64(index), length: 3000, in: writer))
        }
        for child in kept { try PatternTree.check(child, in: writer) }
        try PatternTree.writeRoot(PatternTree.State(step: 1, children: kept), in: writer)
        try writer.commit()
        XCTAssertEqual(try checkedState(store).1.children, kept)
        let reader = try store.beginRead()
        defer { reader.end() }
        for child in kept { try PatternTree.check(child, in: reader) }
    }
}

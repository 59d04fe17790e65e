import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Commits write the changes to a kept full free list instead of the whole list; the changes turn the base into
/// the free space exactly, survive reopening and verification, and damaged changes are refused.
final class FreeListChangesTests: PagerTestCase {
    func testChangesTurnTheBaseIntoTheCurrentList() throws {
        var random = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            let base = randomExtents(&random)
            let current = randomExtents(&random)
            let changes = FreeListChanges(base: NodeRef(rawValue: 1), from: base, to: current)
            XCTAssertEqual(try changes.applied(to: base, path: "test", node: NodeRef(rawValue: 2)), current)
            var bytes = [UInt8](repeating: 0, count: changes.byteCount + 40)
            bytes.withUnsafeMutableBytes { changes.encode(into: $0) }
            let decoded = try bytes.withUnsafeBytes {
                try FreeListChanges.decode($0, pageCount: 10_000, path: "test", node: NodeRef(rawValue: 2))
            }
            XCTAssertEqual(decoded, changes)
        }
    }

    func testLongListsWithAFewEditsListExactlyTheEditedExtents() throws {
        var random = SeededGenerator(seed: 9)
        for round in 0..<50 {
            // A list of up to 3,000 extents, as after a bulk load, and a copy with a few extents changed, removed or
            // added anywhere (at the ends too).
            let base = (0..<UInt64(Int.random(in: 1...3_000, using: &random))).map { extent($0 * 10 + 1, 3, freedAt: $0 % 7) }
            var current = base
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let index = Int.random(in: 0..<current.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: current[index].count = 2
                case 1: if current.count > 1 { current.remove(at: index) }
                default:
                    // Between two extents of the grid (every 10 pages), where nothing was inserted yet.
                    let start = current[index].start
                    if start % 10 == 1, index + 1 == current.count || current[index + 1].start != start + 5 {
                        current.insert(extent(start + 5, 1, freedAt: 99), at: index + 1)
                    }
                }
            }
            let changes = FreeListChanges(base: NodeRef(rawValue: 1), from: base, to: current)
            // What must be listed: base extents not in the current list as they are, and the reverse.
            let key = { (extent: FreeExtent) in [extent.start, extent.count, extent.freedAt, extent.born] }
            let baseKeys = Set(base.map(key))
            let currentKeys = Set(current.map(key))
            XCTAssertEqual(changes.removed, base.filter { !currentKeys.contains(key($0)) }.map(\.start), "round \(round)")
            XCTAssertEqual(changes.added, current.filter { !baseKeys.contains(key($0)) }, "round \(round)")
            XCTAssertEqual(try changes.applied(to: base, path: "test", node: NodeRef(rawValue: 2)), current)
        }
    }

    /// The changes a free space tracks as extents are taken, given back, retired and released are exactly the
    /// changes comparing the whole lists gives, after every step (merges with neighbours included).
    func testTrackedChangesEqualTheChangesComputedAgain() throws {
        var random = SeededGenerator(seed: 13)
        var steps = 0
        for _ in 0..<300 {
            var space = FreeSpace()
            var page: UInt64 = 1
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                page += UInt64.random(in: 0...3, using: &random)
                let count = UInt64.random(in: 1...6, using: &random)
                space.giveBack(start: page, count: count)
                page += count
            }
            let base = FreeListBase(ref: NodeRef(rawValue: 1), extents: space.sortedExtents)
            space.track(base, changes: FreeListChanges(base: base.ref, from: [], to: []))
            var version: UInt64 = 10
            // The commits between two full lists: pages taken, nodes freed within the transaction and by it, and
            // waiting pages released once no reader pins them.
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    _ = space.take(pages: UInt64.random(in: 1...4, using: &random))
                case 1:
                    page += UInt64.random(in: 0...2, using: &random)
                    space.giveBack(start: page, count: 2)
                    page += 2
                case 2:
                    // Often right after the last run, so retired runs of one version merge.
                    page += UInt64.random(in: 0...1, using: &random)
                    let count = UInt64.random(in: 1...3, using: &random)
                    space.retire(start: page, count: count, freedAt: version, born: UInt64.random(in: 1...version, using: &random))
                    page += count
                default:
                    space.release(pinLimit: version, durable: version)
                    version += 1
                }
                let tracked = try XCTUnwrap(space.changes, "short changes stay tracked")
                XCTAssertEqual(tracked, FreeListChanges(base: base.ref, from: base.extents, to: space.sortedExtents))
                steps += 1
            }
        }
        XCTAssertGreaterThan(steps, 3_000)
        // Pages freed between two base extents join them into one; taking the front leaves the second base extent
        // as the base holds it, which then needs no entry at all.
        var space = FreeSpace()
        space.giveBack(start: 1, count: 2)
        space.giveBack(start: 5, count: 3)
        let base = FreeListBase(ref: NodeRef(rawValue: 1), extents: space.sortedExtents)
        space.track(base, changes: FreeListChanges(base: base.ref, from: [], to: []))
        space.giveBack(start: 3, count: 2)
        XCTAssertEqual(space.changes?.removed, [1, 5])
        XCTAssertEqual(space.take(pages: 4), 1)
        XCTAssertEqual(space.changes?.removed, [1])
        XCTAssertEqual(space.changes?.added, [])
    }

    /// Changes that grow past the tracking limit stop being tracked (the commit then compares the lists once).
    func testLongChangesStopBeingTracked() {
        var space = FreeSpace()
        space.giveBack(start: 1, count: 1)
        let base = FreeListBase(ref: NodeRef(rawValue: 1), extents: space.sortedExtents)
        space.track(base, changes: FreeListChanges(base: base.ref, from: [], to: []))
        for index in 0..<UInt64(FreeSpace.trackingLimit) { space.retire(start: 10 + index * 2, count: 1, freedAt: 5, born: 1) }
        XCTAssertNotNil(space.changes)
        space.retire(start: 5, count: 1, freedAt: 5, born: 1)
        XCTAssertNil(space.changes)
    }

    func testUnchangedExtentsAreNotListed() {
        let base = [extent(10, 2, freedAt: 3), extent(20, 1, freedAt: 4), extent(30, 5, freedAt: 4)]
        let current = [extent(10, 2, freedAt: 3), extent(21, 0 + 1, freedAt: 4), extent(30, 5, freedAt: 4)]
        let changes = FreeListChanges(base: NodeRef(rawValue: 1), from: base, to: current)
        XCTAssertEqual(changes.removed, [20])
        XCTAssertEqual(changes.added, [extent(21, 1, freedAt: 4)])
    }

    func testRetiredExtentsStaySortedAndMergeWithNeighboursFreedBySameVersion() {
        var space = FreeSpace()
        var random = SeededGenerator(seed: 6)
        let starts = Array(stride(from: UInt64(10), to: 400, by: 2)).shuffled(using: &random)
        for start in starts { space.retire(start: start, count: 2, freedAt: start < 200 ? 7 : 8, born: start) }
        // Pages 10 ..< 200 were freed by version 7 and 200 ..< 400 by version 8: two runs whatever the order.
        XCTAssertEqual(space.waiting, [
            FreeExtent(start: 10, count: 190, freedAt: 7, born: 10), FreeExtent(start: 200, count: 200, freedAt: 8, born: 200),
        ])
        space.retire(start: 500, count: 1, freedAt: 9, born: 0)
        space.retire(start: 450, count: 1, freedAt: 9, born: 0)
        XCTAssertEqual(space.sortedExtents.map(\.start), [10, 200, 450, 500])
    }

    func testRemovingAnExtentTheBaseLacksIsDamage() throws {
        let changes = FreeListChanges(base: NodeRef(rawValue: 1), from: [extent(10, 2, freedAt: 3)], to: [])
        XCTAssertThrowsError(try changes.applied(to: [extent(11, 2, freedAt: 3)], path: "test", node: NodeRef(rawValue: 2))) {
            guard case StrataError.corruptFile(_, let location, _) = $0 else { return XCTFail("\($0)") }
            XCTAssertTrue(location.contains("free-list changes node #2"), location)
        }
    }

    func testChangesCountsBeyondTheNodeAreDamage() {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes.withUnsafeMutableBytes { $0.baseAddress!.setU64(5, at: 0); $0.baseAddress!.setU64(1_000, at: 8) }
        XCTAssertThrowsError(
            try bytes.withUnsafeBytes { try FreeListChanges.decode($0, pageCount: 100, path: "t", node: NodeRef(rawValue: 9)) })
        bytes.withUnsafeMutableBytes { $0.baseAddress!.setU64(500, at: 0); $0.baseAddress!.setU64(0, at: 8) }
        XCTAssertThrowsError(
            try bytes.withUnsafeBytes { try FreeListChanges.decode($0, pageCount: 100, path: "t", node: NodeRef(rawValue: 9)) },
            "a base outside the version")
    }

    func testSmallCommitsOnAFragmentedFileWriteChangesAndReopenToTheSameFreeSpace() throws {
        let path = storePath()
        var kinds: [NodeKind] = []
        var statusBeforeClose: StoreStatus
        do {
            let store = try Store.open(path: path, options: StoreOptions(durability: .none))
            defer { store.close() }
            try fragment(store)
            var random = SeededGenerator(seed: 11)
            for _ in 0..<80 {
                try rewriteOneChild(store, random: &random)
                kinds.append(try currentFreeListKind(store))
                try store.verify(tableNodes: PatternTree.visit)
            }
            statusBeforeClose = try store.status
        }
        XCTAssertTrue(kinds.contains(.freeListChanges), "small commits should write changes to the list")
        XCTAssertTrue(kinds.contains(.freeList), "the changes should be folded into a new full list now and then")
        XCTAssertLessThan(kinds.filter { $0 == .freeList }.count, kinds.count / 4)

        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        let reopened = try store.status
        XCTAssertEqual(reopened.freeBytes, statusBeforeClose.freeBytes)
        XCTAssertEqual(reopened.usedBytes, statusBeforeClose.usedBytes)
        try store.verify(tableNodes: PatternTree.visit)
        // The writer now reads the list through its changes from the file rather than from its own cache.
        var random = SeededGenerator(seed: 12)
        for _ in 0..<20 {
            try rewriteOneChild(store, random: &random)
            try store.verify(tableNodes: PatternTree.visit)
        }
        _ = try checkedState(store)
    }

    func testCrashImagesOfCommitsWritingFreeListChangesOpenAtOrAfterTheDurableVersion() throws {
        let recording = RecordingStorage(path: "db")
        var options = StoreOptions(durability: .batched, io: recording)
        options.batchInterval = 3600  // syncs only when the test flushes or the bookkeeping limit asks
        let store = try Store.open(path: "db", options: options)
        defer { store.close() }
        try fragment(store)
        try store.flush()
        var durable = store.latestCommittedVersion
        var states: [UInt64: PatternTree.State] = [durable: try checkedState(store).1]
        var random = SeededGenerator(seed: 13)
        var kinds: Set<NodeKind> = []
        for round in 0..<(longTests ? 300 : 60) {
            try rewriteOneChild(store, random: &random)
            states[store.latestCommittedVersion] = try checkedState(store).1
            kinds.insert(try currentFreeListKind(store))
            let images = CrashImage.images(
                durable: recording.durableContents, pending: recording.pendingOperations, count: 4, using: &random)
            for image in images {
                try checkImage(image, oldest: durable, newest: store.latestCommittedVersion, states: states)
            }
            if round % 7 == 6 {
                try store.flush()
            }
            durable = store.lockFile.durable.version
        }
        XCTAssertEqual(kinds, [.freeList, .freeListChanges], "both kinds of free-list node should have been tried")
    }

    // MARK: Helpers

    private func extent(_ start: UInt64, _ count: UInt64, freedAt: UInt64) -> FreeExtent {
        FreeExtent(start: start, count: count, freedAt: freedAt, born: 0)
    }

    /// Non-overlapping extents sorted by start, some of them shared with other calls (small page range).
    private func randomExtents(_ random: inout SeededGenerator) -> [FreeExtent] {
        var extents: [FreeExtent] = []
        var page = UInt64.random(in: 1...4, using: &random)
        while page < 400 {
            let count = UInt64.random(in: 1...3, using: &random)
            if Bool.random(using: &random) {
                extents.append(extent(page, count, freedAt: UInt64.random(in: 1...2, using: &random)))
            }
            page += count + UInt64.random(in: 1...3, using: &random)
        }
        return extents
    }

    /// Writes 400 one-page children, then frees every other one: about 200 free extents.
    private func fragment(_ store: Store) throws {
        let writer = try store.beginWrite()
        var state = PatternTree.State(step: 1)
        for index in 0..<400 {
            state.children.append(try PatternTree.writeChild(seed: UInt64(index), length: 100, in: writer))
        }
        try PatternTree.writeRoot(state, in: writer)
        try writer.commit()
        let second = try store.beginWrite()
        state.step = 2
        let kept = state.children.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        for (index, child) in state.children.enumerated() where index % 2 == 1 { second.free(child.ref) }
        state.children = kept
        try PatternTree.writeRoot(state, in: second)
        try second.commit()
    }

    /// One transaction replacing one random child and the root.
    private func rewriteOneChild(_ store: Store, random: inout SeededGenerator) throws {
        let writer = try store.beginWrite()
        var state = try PatternTree.read(writer)
        state.step += 1
        let index = Int.random(in: 0..<state.children.count, using: &random)
        writer.free(state.children[index].ref)
        state.children[index] = try PatternTree.writeChild(seed: state.step << 16 | UInt64(index), length: 100, in: writer)
        try PatternTree.writeRoot(state, in: writer)
        try writer.commit()
    }

    private func currentFreeListKind(_ store: Store) throws -> NodeKind {
        let meta = try store.currentMeta()
        return try store.pagedFile.header(of: meta.freeList, pageCount: meta.pageCount, version: meta.version).header.kind
    }
}

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// A pinned reader keeps the pages it can reach; once it ends (or its process dies) the space is reused and the
/// file stops growing.
final class GrowthTests: PagerTestCase {
    func testFileStopsGrowingOnceLongReaderEnds() throws {
        let store = try Store.open(path: storePath(), options: StoreOptions(durability: .none))
        defer { store.close() }
        var random = SeededGenerator(seed: 71)
        try commitSteps(store, 20, random: &random)
        let reader = try store.beginRead()
        let pinned = try PatternTree.read(reader)
        let sizeBefore = try store.status.fileBytes
        try commitSteps(store, 1000, random: &random)
        let whilePinned = try store.status
        XCTAssertGreaterThan(whilePinned.fileBytes, sizeBefore, "a pinned reader must keep old pages from reuse")
        XCTAssertEqual(whilePinned.oldestPinnedVersion, reader.version)
        XCTAssertEqual(try PatternTree.read(reader), pinned)
        reader.end()
        try commitSteps(store, 1000, random: &random)
        let after = try store.status
        XCTAssertLessThanOrEqual(after.fileBytes, whilePinned.fileBytes, "space freed while pinned was not reused")
        XCTAssertNil(after.oldestPinnedVersion)
        try store.verify(tableNodes: PatternTree.visit)
    }

    func testClosingTheLastUserCutsGrowthAheadOfNeedFromTheFile() throws {
        let path = storePath()
        var random = SeededGenerator(seed: 73)
        let state: PatternTree.State
        do {
            let store = try Store.open(path: path, options: StoreOptions(durability: .batched))
            var steps = try commitSteps(store, 200, random: &random)
            // Commit until the file holds pages beyond the version's (it grows in steps, so this comes soon).
            var rounds = 0
            while try store.status.fileBytes == store.status.usedBytes + store.status.freeBytes, rounds < 100 {
                steps = try commitSteps(store, 10, random: &random)
                rounds += 1
            }
            let open = try store.status
            XCTAssertGreaterThan(open.fileBytes, open.usedBytes + open.freeBytes, "the file grows in steps ahead of need")
            state = steps
            store.close()
        }
        let store = try Store.open(path: path)
        defer { store.close() }
        let reopened = try store.status
        XCTAssertEqual(reopened.fileBytes, reopened.usedBytes + reopened.freeBytes, "only the pages the version uses remain")
        XCTAssertEqual(try checkedState(store).1, state)
        try store.verify(tableNodes: PatternTree.visit)
    }

    func testSpaceIsReusedInSteadyStateWithFullDurability() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        var random = SeededGenerator(seed: 72)
        try commitSteps(store, 100, random: &random)
        let settled = try store.status.fileBytes
        try commitSteps(store, 200, random: &random)
        XCTAssertLessThanOrEqual(try store.status.fileBytes, settled * 2, "steady churn must not grow the file without bound")
        try store.verify(tableNodes: PatternTree.visit)
    }

    func testKilledReaderProcessReleasesItsPin() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        var random = SeededGenerator(seed: 73)
        try commitSteps(store, 10, random: &random)
        let child = try HelperProcess(executable: helper, arguments: ["pin", path])
        let line = try XCTUnwrap(child.waitForLines(startingWith: "pinned "))
        let pinnedVersion = UInt64(line.split(separator: " ")[1])
        try commitSteps(store, 50, random: &random)
        XCTAssertEqual(try store.status.oldestPinnedVersion, pinnedVersion)
        _ = child.kill()
        try commitSteps(store, 1, random: &random)
        XCTAssertNil(try store.status.oldestPinnedVersion, "the dead process's reader slot was not reclaimed")
        XCTAssertEqual(try store.status.waitingBytes, 0)
    }
}

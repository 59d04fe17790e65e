import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A store with a commit log across processes (`strata-test-helper`): a writer killed at random moments leaves the
/// last acknowledged step or the one after (the log replayed by the next first opener), writers in three
/// processes take the log's end from one another, and a reader pinned in another process keeps reading its
/// version across 100 checkpoints.
final class StoreCommitLogProcessTests: PagerTestCase {
    private func logOptions(threshold: UInt64 = 64 << 10) -> StoreOptions {
        var options = StoreOptions()
        options.commitLog = true
        options.logCheckpointThreshold = threshold
        return options
    }

    /// A child commits table steps through the log and is killed with SIGKILL at random moments (often with
    /// records not yet checkpointed, sometimes in the middle of a checkpoint): the reopened store holds the last
    /// acknowledged step or the one after, every row whole, and verifies.
    func testKilledLogWriterLeavesLastAcknowledgedStepWhole() throws {
        try runStepKillLoop(
            command: "log-step-loop", seed: 81, rounds: longTests ? 120 : 16, maxAcknowledged: 8, options: logOptions()
        )
    }

    /// This process and two children write pattern-tree steps at once: every writer after another process's
    /// commits appends after them (its reader's index gives the end), none is lost, and the store verifies.
    func testWritersInThreeProcessesFollowEachOthersLog() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path, options: logOptions(threshold: 48 << 10))
        defer { store.close() }
        let perWriter = 60
        let children = try (0..<2).map { _ in
            try HelperProcess(executable: helper, arguments: ["log-write-steps", path, "\(perWriter)"])
        }
        var random = SeededGenerator(seed: 82)
        for _ in 0..<perWriter {
            let writer = try store.beginWrite()
            _ = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        for child in children {
            let result = child.wait()
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertTrue(result.output.contains("wrote \(perWriter)"), result.output)
        }
        let (version, state) = try checkedState(store)
        XCTAssertEqual(state.step, UInt64(3 * perWriter))
        XCTAssertEqual(version, UInt64(3 * perWriter) + 1)
        XCTAssertGreaterThan(store.lockFile.generation, 2, "the writers checkpointed and began generations")
    }

    /// A reader in another process pins a version while this process commits 100 times, checkpointing after each:
    /// it reads its version right throughout, one generation is begun while it pins, and the next once it ends.
    func testAReaderInAnotherProcessPinnedAcrossAHundredCheckpoints() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path, options: logOptions(threshold: 1))
        defer { store.close() }
        var random = SeededGenerator(seed: 83)
        for _ in 0..<3 {
            let writer = try store.beginWrite()
            _ = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        let release = storePath("release")
        let child = try HelperProcess(executable: helper, arguments: ["log-pin-check", path, release])
        let pinnedLine = try XCTUnwrap(child.waitForLines(startingWith: "pinned "))
        let pinnedGeneration = store.lockFile.generation
        var generations: Set<UInt64> = []
        var state = PatternTree.State()
        for _ in 0..<100 {
            let writer = try store.beginWrite()
            state = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            generations.insert(store.lockFile.generation)
        }
        XCTAssertEqual(
            generations, [pinnedGeneration + 1], "\(pinnedLine): the next generation would reuse the pinned one's file")
        XCTAssertTrue(FileManager.default.createFile(atPath: release, contents: Data()))
        let result = child.wait()
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(result.output.contains("checked "), result.output)
        let writer = try store.beginWrite()
        state = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        XCTAssertEqual(store.lockFile.generation, pinnedGeneration + 2, "the reader ended: the next generation began")
        let (_, read) = try checkedState(store)
        XCTAssertEqual(read, state)
    }
}

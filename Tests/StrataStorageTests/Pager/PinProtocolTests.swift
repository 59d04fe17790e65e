import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Readers pin without a file lock (lock file formats 2 and 3): a reader stores its pin, then reads the current
/// version again and pins anew if a commit was published in between. These tests lose that race on purpose, hammer
/// it from threads and processes, and check that processes of other lock-file formats are kept out.
final class PinProtocolTests: PagerTestCase {
    /// A reader that read version v, then sees commits published and v's pages reused before it stores its pin,
    /// must not read v: it pins the newest version instead.
    func testAReaderOvertakenBeforeItPinsPinsTheNewerVersion() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path)
        defer { store.close() }
        var random = SeededGenerator(seed: 71)
        try commitSteps(store, 3, random: &random)
        let overtaken = store.latestCommittedVersion
        let commits = 4
        let calls = FailureLog()
        store.setBeforePinning {
            calls.count()
            guard calls.checks == 1 else { return }
            // Another process commits while this reader holds a version it has not pinned yet: with nothing
            // pinned, the commits after the first reuse that version's pages.
            do {
                let child = try HelperProcess(executable: helper, arguments: ["write-steps", path, "\(commits)"])
                let result = child.wait()
                if result.status != 0 { calls.add("write-steps failed: \(result.errors)") }
            } catch {
                calls.add("\(error)")
            }
        }
        let reader = try store.beginRead()
        store.setBeforePinning(nil)
        XCTAssertEqual(calls.messages, [])
        XCTAssertEqual(calls.checks, 2, "the reader pinned once more after the commits")
        XCTAssertEqual(reader.version, overtaken + UInt64(commits))
        XCTAssertEqual(try PatternTree.read(reader).step, 3 + UInt64(commits))
        reader.end()
    }

    /// Readers in three threads and two processes begin and end reads as fast as they can while two writers (a
    /// thread of this process and another process) commit with nothing to wait for (`.none`: freed pages are
    /// reusable as soon as no pin holds them). Every snapshot must read whole, twice, and never change.
    func testBeginReadAndCommitHammeredFromThreadsAndProcesses() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        var random = SeededGenerator(seed: 72)
        try commitSteps(store, 5, random: &random)
        let seconds = longTests ? 20.0 : 3.0
        let readers = try (0..<2).map { _ in
            try HelperProcess(executable: helper, arguments: ["read-check", path, "\(seconds)"])
        }
        let otherWriter = try HelperProcess(executable: helper, arguments: ["write-steps", path, "400"])
        let failures = FailureLog()
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for thread in 0..<3 {
            DispatchQueue.global().async(group: group) {
                var lastVersion: UInt64 = 0
                var round = 0
                while Date() < deadline {
                    do {
                        let reader = try store.beginRead()
                        if reader.version < lastVersion {
                            failures.add("version went back from \(lastVersion) to \(reader.version)")
                        }
                        lastVersion = reader.version
                        let first = try PatternTree.read(reader)
                        // Most rounds read again at once; some let several commits pass first.
                        if (round + thread) % 8 == 0 { usleep(300) } else { sched_yield() }
                        if try PatternTree.read(reader) != first { failures.add("version \(reader.version) changed") }
                        reader.end()
                        failures.count()
                    } catch {
                        failures.add("\(error)")
                    }
                    round += 1
                }
            }
        }
        var commits = 0
        while Date() < deadline {
            try commitSteps(store, 1, random: &random)
            commits += 1
        }
        group.wait()
        XCTAssertEqual(failures.messages, [])
        XCTAssertGreaterThan(failures.checks, 100)
        XCTAssertGreaterThan(commits, 10)
        for child in readers {
            let result = child.wait()
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertTrue(result.output.hasPrefix("checked "), result.output)
        }
        let written = otherWriter.wait()
        XCTAssertEqual(written.status, 0, written.errors)
        let (_, state) = try checkedState(store)
        XCTAssertEqual(state.step, 5 + UInt64(commits) + 400, "a commit was lost")
        XCTAssertNil(try store.status.oldestPinnedVersion, "a pin outlived its reader")
    }

    /// A process of lock file format 1 (which pinned under a registration lock) or 2 (which pins no log
    /// generation) must not share a store with this one: opening while it has the store open is refused at once,
    /// naming the format.
    func testAProcessOfAnotherLockFileFormatIsRefused() throws {
        let helper = try helperExecutable()
        let path = storePath()
        try Store.open(path: path).close()
        let holder = try HelperProcess(executable: helper, arguments: ["pin", path])
        defer { _ = holder.kill() }
        XCTAssertNotNil(holder.waitForLines(startingWith: "pinned"))
        for format: UInt32 in [1, 2] {
            // What an older process leaves in the shared state: the same magic, its format.
            try rewriteFormat(ofLockFileFor: path, to: format)
            let started = Date()
            XCTAssertThrowsError(try Store.open(path: path)) { error in
                XCTAssertTrue("\(error)".contains("lock file format \(format)"), "\(error)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 1, "the refusal waited")
        }
        try rewriteFormat(ofLockFileFor: path, to: LockFile.format)
    }

    /// A lock file a format-2 session left behind (no process has the store open) is taken over by the first
    /// opener, which reads its durable and synced marks as this format's (the same bytes): it opens without
    /// reporting a recovery and without a sync, and rewrites the lock file in format 3.
    func testALockFileLeftByFormatTwoIsTakenOver() throws {
        let path = storePath()
        var random = SeededGenerator(seed: 79)
        do {
            let store = try Store.open(path: path)
            try commitSteps(store, 3, random: &random)
            store.close()
        }
        try rewriteFormat(ofLockFileFor: path, to: 2)
        let store = try Store.open(path: path)
        defer { store.close() }
        XCTAssertNil(store.openRecovery)
        XCTAssertEqual(store.lockFile.previousAcknowledgedVersion, store.latestCommittedVersion)
        XCTAssertNotNil(store.lockFile.previousSynced?.meta, "the synced mark of format 2 was not read")
        XCTAssertEqual(try checkedState(store).1.step, 3)
        try commitSteps(store, 1, random: &random)
        XCTAssertEqual(try lockFileFormat(for: path), 3)
    }

    /// A reader's pin carries the log generation it reads through, in the high half of its slot's pid word, and
    /// another process's writer reads both; a generation published while a reader pins makes it pin again.
    func testPinsCarryTheirGeneration() throws {
        let path = storePath()
        let store = try Store.open(path: path)
        defer { store.close() }
        var random = SeededGenerator(seed: 83)
        try commitSteps(store, 2, random: &random)
        let lockFile = store.lockFile
        store.setBeforePinning {
            // Once only: the reader must see the generation moved under it and pin again with the new one.
            if lockFile.generation == 0 { lockFile.publishGeneration(7) }
        }
        let reader = try store.beginRead()
        store.setBeforePinning(nil)
        XCTAssertEqual(reader.pin, ReaderPin(version: store.latestCommittedVersion, generation: 7))
        let shared = UnsafeRawPointer(lockFile.handle.memory) + 256 + store.readerSlot * 16
        XCTAssertEqual(shared.u64(at: 0) >> 32, 7, "the slot carries the generation")
        XCTAssertEqual(shared.u64(at: 0) & 0xFFFF_FFFF, UInt64(getpid()), "the slot keeps its pid")
        XCTAssertEqual(shared.u64(at: 8), reader.version)
        reader.end()
        XCTAssertEqual(shared.u64(at: 8), 0, "the pin outlived its reader")
        // Another process's pin, as this process's writer reads it.
        let holder = try HelperProcess(executable: try helperExecutable(), arguments: ["pin", path])
        defer { _ = holder.kill() }
        XCTAssertNotNil(holder.waitForLines(startingWith: "pinned"))
        XCTAssertEqual(
            lockFile.pinsOfOtherProcesses(ownSlot: store.readerSlot, clearingDead: false),
            [ReaderPin(version: store.latestCommittedVersion, generation: 7)])
    }

    /// A lock file a format-1 session left behind (no process has the store open) is recovered and rewritten in
    /// this format by the first opener.
    func testALockFileLeftByFormatOneIsTakenOver() throws {
        let path = storePath()
        var random = SeededGenerator(seed: 73)
        do {
            let store = try Store.open(path: path)
            try commitSteps(store, 2, random: &random)
            store.close()
        }
        // Format 1 kept the durable version alone at bytes 24-31 and its data-file slot at 32-39.
        try rewriteFormat(ofLockFileFor: path, to: 1)
        try rewrite(ofLockFileFor: path, at: 24, with: 3)
        try rewrite(ofLockFileFor: path, at: 32, with: 0)
        let store = try Store.open(path: path)
        defer { store.close() }
        XCTAssertNil(store.openRecovery)
        XCTAssertEqual(try checkedState(store).1.step, 2)
        try commitSteps(store, 1, random: &random)
        XCTAssertEqual(try lockFileFormat(for: path), 3)
    }

    private func rewriteFormat(ofLockFileFor path: String, to format: UInt32) throws {
        try rewrite(ofLockFileFor: path, at: 8, with: format)
    }

    private func rewrite(ofLockFileFor path: String, at offset: UInt64, with value: some FixedWidthInteger) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path + ".lock"))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: withUnsafeBytes(of: value.littleEndian) { Data($0) })
    }

    private func lockFileFormat(for path: String) throws -> UInt32 {
        let data = try Data(contentsOf: URL(fileURLWithPath: path + ".lock"))
        return data[8..<12].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
    }
}

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Readers in several threads and processes check pinned snapshots while a writer churns: snapshots never
/// change, readers see versions in order, and nothing committed is lost. Writers in several processes and
/// threads take turns.
final class ConcurrencyTests: PagerTestCase {
    func testThreadAndProcessReadersSeeStableSnapshotsWhileOneWrites() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path, options: StoreOptions(durability: .batched))
        defer { store.close() }
        var random = SeededGenerator(seed: 61)
        try commitSteps(store, 5, random: &random)
        let seconds = longTests ? 20.0 : 2.0
        let children = try (0..<2).map { _ in
            try HelperProcess(executable: helper, arguments: ["read-check", path, "\(seconds)"])
        }
        let failures = FailureLog()
        let deadline = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                var lastStep: UInt64 = 0
                while Date() < deadline {
                    do {
                        let reader = try store.beginRead()
                        let first = try PatternTree.read(reader)
                        if first.step < lastStep { failures.add("step went back from \(lastStep) to \(first.step)") }
                        lastStep = first.step
                        usleep(UInt32.random(in: 0...1000))
                        if try PatternTree.read(reader) != first { failures.add("version \(reader.version) changed") }
                        reader.end()
                        failures.count()
                    } catch {
                        failures.add("\(error)")
                    }
                }
            }
        }
        var written = PatternTree.State()
        while Date() < deadline {
            written = try commitSteps(store, 1, random: &random)
        }
        group.wait()
        XCTAssertEqual(failures.messages, [])
        XCTAssertGreaterThan(failures.checks, 0)
        for child in children {
            let result = child.wait()
            XCTAssertEqual(result.status, 0, result.errors)
            XCTAssertTrue(result.output.hasPrefix("checked "), result.output)
        }
        XCTAssertEqual(try checkedState(store).1, written, "the last commit is what a new reader sees")
    }

    func testWritersInSeveralProcessesAndThreadsNeverLoseACommit() throws {
        let helper = try helperExecutable()
        let path = storePath()
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        let perWriter = 30
        let children = try (0..<2).map { _ in
            try HelperProcess(executable: helper, arguments: ["write-steps", path, "\(perWriter)"])
        }
        let failures = FailureLog()
        let group = DispatchGroup()
        for thread in 0..<2 {
            DispatchQueue.global().async(group: group) {
                var random = SeededGenerator(seed: 62 + UInt64(thread))
                for _ in 0..<perWriter {
                    do {
                        let writer = try store.beginWrite()
                        _ = try PatternTree.advance(writer, random: &random)
                        try writer.commit()
                    } catch {
                        failures.add("\(error)")
                    }
                }
            }
        }
        group.wait()
        for child in children {
            let result = child.wait()
            XCTAssertEqual(result.status, 0, result.errors)
        }
        XCTAssertEqual(failures.messages, [])
        let (version, state) = try checkedState(store)
        // Each transaction read the previous step and wrote the next: a lost update would leave a gap.
        XCTAssertEqual(state.step, UInt64(4 * perWriter))
        XCTAssertEqual(version, UInt64(4 * perWriter + 1))
    }
}

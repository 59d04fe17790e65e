import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// A child process commits in a loop and is killed with SIGKILL at random moments; the reopened file holds the
/// last acknowledged commit or a later one, with intact content, and verifies.
final class KillLoopTests: PagerTestCase {
    func testKilledWriterLeavesLastAcknowledgedCommitOrLater() throws {
        try runKillLoop(kills: longTests ? 220 : 24, key: nil)
    }

    func testKilledWriterOfAnEncryptedFileLeavesLastAcknowledgedCommitOrLater() throws {
        try runKillLoop(kills: longTests ? 100 : 12, key: EncryptionTests.key)
    }

    /// A child commits table steps (`StepTable`: decimals, ObjectIds, mixed values, a `set<any>`, a `map<any>`,
    /// embedded rows) and is killed at random moments: the reopened file holds the last acknowledged step or the one
    /// after, every row whole, and verifies.
    func testKilledTableWriterLeavesLastAcknowledgedStepWhole() throws {
        try runStepKillLoop(command: "step-loop", seed: 52, rounds: longTests ? 150 : 16, maxAcknowledged: 4)
    }

    private func runKillLoop(kills: Int, key: [UInt8]?) throws {
        var options = StoreOptions()
        options.encryptionKey = key
        let keyArgument = key.map { [$0.map { String(format: "%02x", $0) }.joined()] } ?? []
        let helper = try helperExecutable()
        let path = storePath()
        var random = SeededGenerator(seed: 51)
        var lastVersion: UInt64 = 0
        var guaranteed: UInt64 = 0
        for round in 0..<kills {
            let durability = round % 3 == 2 ? "batched" : "full"
            let child = try HelperProcess(executable: helper, arguments: ["commit-loop", path, durability] + keyArgument)
            // Let a random number of commits be acknowledged, then kill at a random moment of the ones after:
            // progress does not depend on how fast this machine is.
            let target = Int.random(in: 0...6, using: &random)
            if target > 0 { child.waitForLines(startingWith: "committed ", count: target) }
            guaranteed += UInt64(target)
            usleep(UInt32.random(in: 0...30_000, using: &random))
            let output = child.kill()
            let acknowledged = output.split(separator: "\n").compactMap { line -> UInt64? in
                let fields = line.split(separator: " ")
                return fields.count == 3 && fields[0] == "committed" ? UInt64(fields[1]) : nil
            }.last ?? lastVersion
            let store = try Store.open(path: path, options: options)
            let (version, state) = try checkedState(store)
            store.close()
            XCTAssertGreaterThanOrEqual(version, acknowledged, "round \(round): acknowledged commit lost")
            XCTAssertGreaterThanOrEqual(version, lastVersion, "round \(round): the file went back in time")
            XCTAssertEqual(state.step + 1, version, "round \(round): content of version \(version) is not whole")
            lastVersion = version
        }
        XCTAssertGreaterThanOrEqual(lastVersion, 1 + guaranteed, "acknowledged commits are missing")
    }
}

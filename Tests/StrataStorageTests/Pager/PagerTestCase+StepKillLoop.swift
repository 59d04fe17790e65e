import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

extension PagerTestCase {
    /// Runs `strata-test-helper <command> PATH` (a loop committing `StepTable` steps and printing `committed N`)
    /// `rounds` times, killing it with SIGKILL after up to `maxAcknowledged` acknowledged steps and a random delay;
    /// after each kill the reopened store must hold the last acknowledged step or the one after, never go back in
    /// time, and verify.
    func runStepKillLoop(
        command: String, seed: UInt64, rounds: Int, maxAcknowledged: Int, options: StoreOptions = StoreOptions()
    ) throws {
        let helper = try helperExecutable()
        let path = storePath()
        var random = SeededGenerator(seed: seed)
        var lastStep: Int64 = 0
        for round in 0..<rounds {
            let child = try HelperProcess(executable: helper, arguments: [command, path])
            let target = Int.random(in: 0...maxAcknowledged, using: &random)
            if target > 0 { child.waitForLines(startingWith: "committed ", count: target) }
            usleep(UInt32.random(in: 0...20_000, using: &random))
            let acknowledged = child.kill().split(separator: "\n").compactMap { line -> Int64? in
                let fields = line.split(separator: " ")
                return fields.count == 2 && fields[0] == "committed" ? Int64(fields[1]) : nil
            }.last ?? lastStep
            let store = try Store.open(path: path, options: options)
            let step = try StepTable.read(store)
            _ = try store.verifyAll()
            store.close()
            XCTAssertGreaterThanOrEqual(step, acknowledged, "round \(round): an acknowledged step was lost")
            XCTAssertLessThanOrEqual(step, acknowledged + 1, "round \(round): a step nobody committed")
            XCTAssertGreaterThanOrEqual(step, lastStep, "round \(round): the file went back in time")
            lastStep = step
        }
        XCTAssertGreaterThan(lastStep, 0, "no step was ever committed")
    }
}

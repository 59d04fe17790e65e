import Foundation
import StrataTestSupport
import XCTest

/// Programs whose main queue and main actor run on another thread than the one they started on (Linux, after
/// `dispatchMain()`, which a top-level `await` calls implicitly): a database opened there belongs to the main
/// queue and actor, so using it across awaits and in deliveries on the main queue must not stop the program.
final class MainActorProgramTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-main-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func assertSucceeds(
        _ executable: String, _ arguments: [String], notes: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let outcome = try BuiltExecutable(named: executable).run(arguments, timeout: 90)
        XCTAssertFalse(outcome.wasSignalled, "stopped: \(outcome.errorOutput)", file: file, line: line)
        XCTAssertEqual(outcome.status, 0, outcome.errorOutput, file: file, line: line)
        XCTAssertEqual(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines), "ok \(notes)",
            outcome.errorOutput, file: file, line: line)
    }

    func testADatabaseOpenedByTopLevelCodeWorksAcrossAwaits() throws {
        try assertSucceeds(
            "strata-main-actor-helper", ["top-level", folder.appendingPathComponent("a.strata").path], notes: 4)
    }

    func testADatabaseOpenedInAMainActorFunctionWorksAcrossAwaits() throws {
        try assertSucceeds(
            "strata-main-actor-helper", ["main-actor-function", folder.appendingPathComponent("b.strata").path],
            notes: 4)
    }

    func testADatabaseObservedBeforeDispatchMainGetsItsDeliveries() throws {
        try assertSucceeds("strata-dispatch-main-helper", [folder.appendingPathComponent("c.strata").path], notes: 3)
    }
}

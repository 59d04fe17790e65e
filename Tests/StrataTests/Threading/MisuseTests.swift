import Foundation
import StrataTestSupport
import XCTest

/// Mistakes that stop the program (they cannot be thrown from where they happen) stop it with a message that
/// names the mistake and the fix. Each runs in a child process.
final class MisuseTests: XCTestCase {
    private func assertStops(_ kind: String, saying fragments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try TemporaryDirectory()
        let helper = try BuiltExecutable(named: "strata-object-helper")
        let outcome = try helper.run(["misuse", kind, directory.url.appendingPathComponent("misuse.strata").path])
        XCTAssertFalse(outcome.output.contains("no failure"), "\(kind) did not stop the program", file: file, line: line)
        XCTAssertNotEqual(outcome.status, 0, file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(
                outcome.errorOutput.contains(fragment), "\(kind): '\(fragment)' missing from:\n\(outcome.errorOutput)",
                file: file, line: line)
        }
    }

    func testUsingADatabaseFromAnotherThreadStopsWithTheWayAcross() throws {
        // The helper opens its database on the main thread, so it belongs to the main thread, queue and actor.
        try assertStops("wrong-thread", saying: ["from a thread other than the main thread", "ThreadSafeReference"])
    }

    func testReadingAnObjectPropertyFromAnotherThreadStops() throws {
        try assertStops(
            "wrong-thread-read", saying: ["reading Note.text", "from a thread other than the main thread"])
    }

    func testUsingADatabaseFromAnotherTaskStops() throws {
        try assertStops("wrong-task", saying: ["outside the Swift task that opened its database", "ThreadSafeReference"])
    }

    /// Swift answers "is this code on that actor?" only by stopping the program, with its own message naming
    /// the actor.
    func testUsingAnActorsDatabaseFromOutsideTheActorStops() throws {
        try assertStops("wrong-actor", saying: ["Incorrect actor executor assumption", "Owner"])
    }

    func testWritingOutsideATransactionStopsWithTheFix() throws {
        try assertStops("write-outside", saying: ["outside a write transaction", "db.write"])
    }

    func testNestedBeginWriteStops() throws {
        try assertStops("nested-write", saying: ["writes do not nest"])
    }

    func testBeginWriteOnAReadOnlyDatabaseStops() throws {
        try assertStops("read-only-write", saying: ["opened read-only"])
    }

    func testReadingADeletedObjectStops() throws {
        try assertStops("read-deleted", saying: ["deleted", "isInvalidated"])
    }
}

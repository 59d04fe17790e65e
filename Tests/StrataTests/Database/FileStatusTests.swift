import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// `Database.fileStatus`: the file bloat an old snapshot causes, visible to the app.
final class FileStatusTests: DatabaseTestCase {
    func testFileStatusShowsWhatAnOldSnapshotKeepsAndWhenItIsFreed() throws {
        let db = try openDatabase()
        try db.write { for i in 0..<2000 { db.add(Person(id: i, name: String(repeating: "n", count: 200))) } }
        var snapshot: Database? = try db.freeze()
        let snapshotVersion = try db.fileStatus.currentVersion
        try db.write { db.delete(db.objects(Person.self)) }
        try db.write { db.add(Person(id: -1, name: "after")) }

        let held = try db.fileStatus
        XCTAssertEqual(held.oldestPinnedVersion, snapshotVersion, "the snapshot's version is the oldest pinned")
        XCTAssertGreaterThan(held.waitingBytes, 400_000, "2,000 names of 200 bytes wait for the snapshot")
        XCTAssertGreaterThanOrEqual(held.fileBytes, held.usedBytes + held.freeBytes)

        snapshot = nil
        let released = try db.fileStatus
        XCTAssertTrue(
            [nil, released.currentVersion].contains(released.oldestPinnedVersion),
            "at most the database's own, current version is pinned: \(String(describing: released.oldestPinnedVersion))")
        XCTAssertEqual(released.waitingBytes, 0, "nothing waits once the snapshot is gone")
        XCTAssertGreaterThan(released.freeBytes, 400_000, "the pages are free for the next commits")
        withExtendedLifetime(snapshot) {}
    }
}

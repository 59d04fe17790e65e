@testable import StrataStorage
import XCTest

/// `FreeSpace.release` moves exactly the waiting extents the reuse rule allows, keeps the others in page order,
/// and merges what it releases with adjacent reusable runs.
final class FreeSpaceReleaseTests: XCTestCase {
    func testReleaseMovesOnlyQualifyingExtentsAndKeepsTheRestSorted() {
        // Durable version 10, no reader older than version 12.
        let extents = [
            FreeExtent(start: 40, count: 2, freedAt: 9, born: 3),    // freed before the sync: reusable
            FreeExtent(start: 10, count: 4, freedAt: 12, born: 5),   // reached by the durable version: waits
            FreeExtent(start: 20, count: 1, freedAt: 12, born: 11),  // born after the sync: reusable
            FreeExtent(start: 30, count: 3, freedAt: 13, born: 11),  // a reader may still reach it: waits
            FreeExtent(start: 42, count: 1, freedAt: 11, born: 11),  // born after the sync, next to 40: merges
            FreeExtent(start: 50, count: 2, freedAt: 11, born: 2),   // freed after the sync, born before: waits
        ]
        var space = FreeSpace(extents: extents)
        space.release(pinLimit: 12, durable: 10)
        XCTAssertEqual(space.reusable.map { [$0.start, $0.count] }, [[20, 1], [40, 3]])
        XCTAssertEqual(space.waiting.map(\.start), [10, 30, 50])
        XCTAssertEqual(space.extentCount, 5)
        XCTAssertEqual(space.sortedExtents.map(\.start), [10, 20, 30, 40, 50])
    }

    func testReleaseWithNothingQualifyingChangesNothing() {
        let extents = [FreeExtent(start: 5, count: 1, freedAt: 8, born: 1), FreeExtent(start: 9, count: 2, freedAt: 9, born: 1)]
        var space = FreeSpace(extents: extents)
        space.release(pinLimit: 9, durable: 7)
        XCTAssertTrue(space.reusable.isEmpty)
        XCTAssertEqual(space.waiting, extents)
    }

    func testReleaseOnceDurableFreesEverythingUnpinned() {
        var space = FreeSpace(extents: (0..<300).map { FreeExtent(start: UInt64($0 * 3), count: 1, freedAt: 20, born: 1) })
        space.release(pinLimit: 20, durable: 20)
        XCTAssertTrue(space.waiting.isEmpty)
        XCTAssertEqual(space.reusable.count, 300, "runs two pages apart must not merge")
        XCTAssertEqual(space.take(pages: 1), 0)
    }
}

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// `verify()` finds leaked pages, pages claimed twice and nodes that fail their checksum.
final class VerifyTests: PagerTestCase {
    func testLeakedNodeIsReported() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        var random = SeededGenerator(seed: 101)
        try commitSteps(store, 3, random: &random)
        let writer = try store.beginWrite()
        _ = try writer.allocate(byteCount: 100)  // never linked from the root
        _ = try PatternTree.advance(writer, random: &random)
        try writer.commit()
        XCTAssertThrowsError(try store.verify(tableNodes: PatternTree.visit)) { error in
            guard case let .corruptFile(_, _, detail) = error as? StrataError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("leaked"), detail)
        }
    }

    func testNodeReportedTwiceIsReported() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        var random = SeededGenerator(seed: 102)
        try commitSteps(store, 3, random: &random)
        XCTAssertThrowsError(
            try store.verify { reader, report in
                try PatternTree.visit(reader, report: report)
                report(reader.root)
            }
        ) { error in
            guard case let .corruptFile(_, _, detail) = error as? StrataError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("already uses"), detail)
        }
    }

    func testFreedNodeStillReportedIsReported() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        var random = SeededGenerator(seed: 103)
        try commitSteps(store, 2, random: &random)
        let reader = try store.beginRead()
        let oldRoot = reader.root
        reader.end()
        try commitSteps(store, 1, random: &random)
        // The old root is now on the free list: reporting it as reachable claims a free page.
        XCTAssertThrowsError(
            try store.verify { reader, report in
                try PatternTree.visit(reader, report: report)
                report(oldRoot)
            })
    }

    func testTableErrorsPassThrough() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        XCTAssertThrowsError(try store.verify { _, _ in throw PatternTree.Mismatch(description: "table broken") }) {
            XCTAssertTrue($0 is PatternTree.Mismatch)
        }
    }
}

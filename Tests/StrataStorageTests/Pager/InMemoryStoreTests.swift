import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// An in-memory store behaves like a file store: snapshots, concurrent readers, space reuse, verification.
final class InMemoryStoreTests: PagerTestCase {
    func testInMemoryStoreKeepsSnapshotsAndReusesSpace() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        var random = SeededGenerator(seed: 81)
        let early = try commitSteps(store, 10, random: &random)
        let reader = try store.beginRead()
        try commitSteps(store, 200, random: &random)
        XCTAssertEqual(try PatternTree.read(reader), early)
        let whilePinned = try store.status
        XCTAssertEqual(whilePinned.oldestPinnedVersion, 11)
        reader.end()
        try commitSteps(store, 200, random: &random)
        XCTAssertLessThanOrEqual(try store.status.fileBytes, whilePinned.fileBytes)
        try store.verify(tableNodes: PatternTree.visit)
    }

    func testInMemoryReadersInThreadsSeeWholeVersions() throws {
        let store = try Store.inMemory(identifier: "threads-\(UUID())")
        defer { store.close() }
        var random = SeededGenerator(seed: 82)
        try commitSteps(store, 3, random: &random)
        let deadline = Date().addingTimeInterval(longTests ? 10 : 1)
        let group = DispatchGroup()
        let failures = FailureLog()
        for _ in 0..<3 {
            DispatchQueue.global().async(group: group) {
                while Date() < deadline {
                    do {
                        let reader = try store.beginRead()
                        let state = try PatternTree.read(reader)
                        if state.step + 1 != reader.version {
                            failures.add("version \(reader.version) holds step \(state.step)")
                        }
                        reader.end()
                        failures.count()
                    } catch {
                        failures.add("\(error)")
                    }
                }
            }
        }
        while Date() < deadline { try commitSteps(store, 1, random: &random) }
        group.wait()
        XCTAssertEqual(failures.messages, [])
        XCTAssertGreaterThan(failures.checks, 0)
        try store.verify(tableNodes: PatternTree.visit)
    }
}

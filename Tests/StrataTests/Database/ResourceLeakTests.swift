import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// An app that opens its database per task, observes, writes and lets it go, many times over: every file
/// descriptor, mapping and thread comes back.
final class DatabaseResourceLeakTests: DatabaseTestCase {
    func testOpeningObservingAndReleasingGivesBackDescriptorsMappingsAndThreads() throws {
        guard let before = Self.counts() else { throw XCTSkip("no /proc here to count descriptors, mappings and threads") }
        let queue = DispatchQueue(label: "observer")
        for round in 0..<30 {
            try {
                let db = try openDatabase()
                let initial = expectation(description: "initial \(round)")
                let updated = expectation(description: "update \(round)")
                let token = try db.objects(Person.self).filter("id >= 0").observe(on: queue) { change in
                    switch change {
                    case .initial: initial.fulfill()
                    case .update: updated.fulfill()
                    case .error(let error): XCTFail("\(error)")
                    }
                }
                // The initial results are computed on the queue: a write before they are would be in them.
                wait(for: [initial], timeout: 20)
                try db.write { db.add(Person(id: round, name: "p\(round)")) }
                wait(for: [updated], timeout: 20)
                token.invalidate()
                XCTAssertEqual(db.objects(Person.self).count, round + 1)
            }()
        }
        // The commit watcher's thread ends within its poll interval once nothing observes, the dispatch queue's
        // worker a few seconds after it idles.
        var after = try XCTUnwrap(Self.counts())
        let deadline = Date().addingTimeInterval(10)
        while after.threads > before.threads, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            after = try XCTUnwrap(Self.counts())
        }
        XCTAssertLessThanOrEqual(after.descriptors, before.descriptors + 2, "descriptors leak")
        XCTAssertLessThanOrEqual(after.mappings, before.mappings + 8, "mappings leak")
        XCTAssertLessThanOrEqual(after.threads, before.threads + 1, "threads leak")
    }

    /// Open file descriptors, memory mappings and threads of this process, from `/proc`.
    private static func counts() -> (descriptors: Int, mappings: Int, threads: Int)? {
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"),
              let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
              let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        else { return nil }
        return (descriptors.count, maps.split(separator: "\n").count, threads.count)
    }
}

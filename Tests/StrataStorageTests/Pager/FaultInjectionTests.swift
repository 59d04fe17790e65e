import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// The Nth write, sync, truncate or map fails, once or for good: the operation throws a `StrataError`, the file
/// still opens to a committed version, and after a failed sync the store refuses writes until reopened.
final class FaultInjectionTests: PagerTestCase {
    func testInjectedFailuresThrowAndLeaveAFileThatOpens() throws {
        let occurrences: [FailingStorage.Operation: [Int]] = [
            .write: [1, 2, 3, 5, 8, 13, 21, 34], .sync: [1, 2, 3, 4, 6], .truncate: [1, 2, 3], .map: [1],
        ]
        var triggered = 0
        for (operation, counts) in occurrences.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for occurrence in counts {
                for persistent in [false, true] {
                    triggered += try run(operation, occurrence: occurrence, persistent: persistent, code: EIO) ? 1 : 0
                }
            }
        }
        // Most plans must actually have fired, or the test proves nothing.
        XCTAssertGreaterThan(triggered, 25)
    }

    func testFullDiskIsReportedAsDiskFull() throws {
        XCTAssertTrue(try run(.write, occurrence: 4, persistent: true, code: ENOSPC, expectDiskFull: true))
    }

    func testFailedSyncRefusesWritesUntilReopen() throws {
        let inner = MemoryStorage()
        var random = SeededGenerator(seed: 31)
        let baseline = try Store.open(path: "db", options: StoreOptions(io: inner))
        try commitSteps(baseline, 3, random: &random)
        baseline.close()
        // The first sync is the commit's: the open does not sync a file its last session left synced.
        let failing = FailingStorage(inner: inner, failing: .sync, at: 1, persistent: false)
        let store = try Store.open(path: "db", options: StoreOptions(io: failing))
        XCTAssertThrowsError(try commitSteps(store, 1, random: &random)) { error in
            guard case .io(let operation, _, EIO, _) = error as? StrataError else { return XCTFail("\(error)") }
            XCTAssertEqual(operation, "sync")
        }
        // The next sync would succeed, but the store must not assume anything about the disk.
        XCTAssertThrowsError(try store.beginWrite()) {
            XCTAssertEqual($0 as? StrataError, .writesRefusedAfterFailedSync(path: "db"))
        }
        XCTAssertEqual(try checkedState(store).0, 4, "readers still see the last acknowledged version")
        store.close()
        let reopened = try Store.open(path: "db", options: StoreOptions(io: failing))
        defer { reopened.close() }
        XCTAssertNoThrow(try commitSteps(reopened, 1, random: &random))
    }

    /// Commits through a storage that fails as planned; returns whether the failure fired.
    private func run(
        _ operation: FailingStorage.Operation, occurrence: Int, persistent: Bool, code: Int32, expectDiskFull: Bool = false
    ) throws -> Bool {
        let label = "\(operation) #\(occurrence)\(persistent ? " and later" : "")"
        let inner = MemoryStorage(capacity: 1 << 28)
        var random = SeededGenerator(seed: UInt64(occurrence) * 7 + (persistent ? 1 : 0))
        var states: [UInt64: PatternTree.State] = [1: PatternTree.State()]
        let baseline = try Store.open(path: "db", options: StoreOptions(io: inner))
        for _ in 0..<2 {
            let writer = try baseline.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        baseline.close()
        var acknowledged: UInt64 = 3
        let failing = FailingStorage(inner: inner, failing: operation, at: occurrence, persistent: persistent, code: code)
        do {
            let store = try Store.open(path: "db", options: StoreOptions(io: failing))
            defer { store.close() }
            for _ in 0..<10 {
                do {
                    let writer = try store.beginWrite()
                    let state = try PatternTree.advance(writer, random: &random)
                    states[writer.version] = state
                    try writer.commit()
                    acknowledged = writer.version
                } catch let error as StrataError {
                    if expectDiskFull { XCTAssertEqual(error, .diskFull(path: "db"), label) }
                    if case .writesRefusedAfterFailedSync = error { break }
                }
            }
        } catch let error as StrataError {
            XCTAssertTrue(failing.failures > 0, "\(label): open failed without an injected failure: \(error)")
        }
        let reopened = try Store.open(path: "db", options: StoreOptions(io: inner))
        defer { reopened.close() }
        let (version, state) = try checkedState(reopened)
        XCTAssertGreaterThanOrEqual(version, acknowledged, "\(label): an acknowledged commit was lost")
        XCTAssertLessThanOrEqual(version, acknowledged + 1, label)
        XCTAssertEqual(state, states[version], "\(label): version \(version) has the wrong content")
        return failing.failures > 0
    }
}

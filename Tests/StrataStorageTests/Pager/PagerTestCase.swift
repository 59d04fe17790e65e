import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Shared tools of the pager tests: temporary stores, pattern-tree commits, whole-store checks.
class PagerTestCase: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "strata-pager")
    }

    override func tearDown() {
        directory = nil
    }

    /// A path for a store file in this test's directory.
    func storePath(_ name: String = "test") -> String {
        directory.url.appendingPathComponent("\(name).strata").path
    }

    /// What `recording` holds unsynced, but the data file's record of the last version synced (`AcknowledgedSlot`),
    /// which the store writes after that sync by design: it names a version already on disk, so the file opens the
    /// same whether it reaches the disk or not.
    func unsyncedOperations(_ recording: RecordingStorage) -> [RecordingStorage.PendingOperation] {
        recording.pendingOperations.filter {
            if case let .write(offset, _) = $0 { offset != UInt64(AcknowledgedSlot.offset) } else { true }
        }
    }

    /// Whether the long variants were asked for (`STRATA_LONG_TESTS=1`).
    var longTests: Bool { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" }

    /// Commits `count` pattern-tree transactions; returns the last state.
    @discardableResult
    func commitSteps(_ store: Store, _ count: Int, random: inout some RandomNumberGenerator) throws -> PatternTree.State {
        var state = PatternTree.State()
        for _ in 0..<count {
            let writer = try store.beginWrite()
            state = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        return state
    }

    /// Reads the newest version's pattern tree (checking every node) and verifies the whole store.
    func checkedState(_ store: Store, file: StaticString = #filePath, line: UInt = #line) throws -> (UInt64, PatternTree.State) {
        let reader = try store.beginRead()
        defer { reader.end() }
        let state = try PatternTree.read(reader)
        try store.verify(tableNodes: PatternTree.visit)
        return (reader.version, state)
    }

    /// Opens `image` and checks it holds a committed version between `oldest` and `newest`; returns it.
    @discardableResult
    func checkImage(
        _ image: [UInt8], oldest: UInt64, newest: UInt64, states: [UInt64: PatternTree.State],
        encryptionKey: [UInt8]? = nil, file: StaticString = #filePath, line: UInt = #line
    ) throws -> UInt64 {
        let storage = MemoryStorage(capacity: 1 << 28)
        try storage.setContents(image, ofFile: "db")
        var options = StoreOptions(io: storage)
        options.encryptionKey = encryptionKey
        let store = try Store.open(path: "db", options: options)
        defer { store.close() }
        let (version, state) = try checkedState(store)
        XCTAssertGreaterThanOrEqual(version, oldest, "a durable commit was lost", file: file, line: line)
        XCTAssertLessThanOrEqual(version, newest, file: file, line: line)
        XCTAssertEqual(state, states[version], "version \(version) opened with the wrong content", file: file, line: line)
        return version
    }

    /// The `strata-test-helper` executable built beside the test bundle.
    func helperExecutable() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("strata-test-helper"),
            Bundle(for: PagerTestCase.self).bundleURL.deletingLastPathComponent().appendingPathComponent("strata-test-helper"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../.build/debug/strata-test-helper"),
        ]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        XCTFail("strata-test-helper was not built next to the tests; run `swift build --build-tests` first")
        throw StrataError.invalidArgument("strata-test-helper not found")
    }
}

/// Failures and successful checks collected from several threads.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storedMessages: [String] = []
    private var storedChecks = 0

    /// What went wrong, in order of arrival.
    var messages: [String] { lock.withLock { storedMessages } }
    /// How many checks passed.
    var checks: Int { lock.withLock { storedChecks } }

    /// Records a failure.
    func add(_ message: String) { lock.withLock { storedMessages.append(message) } }

    /// Records a passed check.
    func count() { lock.withLock { storedChecks += 1 } }
}

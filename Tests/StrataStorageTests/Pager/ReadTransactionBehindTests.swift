import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// `ReadTransaction.isBehindLatestCommit`, what a database's autorefresh asks before every query and lookup: one
/// load of the lock file's shared word while the transaction is open, the store's answer after it ended.
final class ReadTransactionBehindTests: PagerTestCase {
    /// Commits one small change (the pattern tree the pager tests use).
    private func commitOnce(_ store: Store, seed: UInt64 = 7) throws {
        var random = SeededGenerator(seed: seed)
        let writer = try store.beginWrite()
        _ = try PatternTree.advance(writer, random: &random)
        try writer.commit()
    }

    func testATransactionFallsBehindTheNextCommitOfThisProcess() throws {
        let store = try Store.open(path: storePath())
        defer { store.close() }
        try commitOnce(store)
        let read = try store.beginRead()
        XCTAssertFalse(read.isBehindLatestCommit)
        try commitOnce(store, seed: 8)
        XCTAssertTrue(read.isBehindLatestCommit)
        let newer = try store.beginRead()
        XCTAssertFalse(newer.isBehindLatestCommit)
        XCTAssertTrue(read.isBehindLatestCommit, "still behind, whatever newer transactions read")
        read.end()
        XCTAssertTrue(read.isBehindLatestCommit, "after end() the store answers")
        newer.end()
        XCTAssertFalse(newer.isBehindLatestCommit)
    }

    func testAnInMemoryStoresTransactionFallsBehind() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let read = try store.beginRead()
        XCTAssertFalse(read.isBehindLatestCommit)
        try commitOnce(store)
        XCTAssertTrue(read.isBehindLatestCommit)
        read.end()
    }

    func testATransactionFallsBehindAnotherProcesssCommit() throws {
        let path = storePath()
        let store = try Store.open(path: path)
        defer { store.close() }
        let read = try store.beginRead()
        XCTAssertFalse(read.isBehindLatestCommit)
        let child = try HelperProcess(executable: try helperExecutable(), arguments: ["commit-after", path, "0"])
        let result = child.wait()
        XCTAssertEqual(result.status, 0, result.errors)
        XCTAssertTrue(read.isBehindLatestCommit, "the child printed: \(result.output)")
        read.end()
    }
}

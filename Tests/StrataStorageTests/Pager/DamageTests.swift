import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Flipped bytes, zeroed pages and truncation at many offsets give a `StrataError` or a committed version with
/// the right content: never a crash, never wrong data. `EncryptedDamageTests` runs the same on an encrypted file.
class DamageTests: PagerTestCase {
    private var pristine: [UInt8] = []
    private var states: [UInt64: PatternTree.State] = [:]

    /// The key the damaged files are encrypted with (none here).
    var encryptionKey: [UInt8]? { nil }

    /// Options for opening the damaged file.
    private func options(io: StorageIO? = nil) -> StoreOptions {
        var options = StoreOptions(io: io)
        options.encryptionKey = encryptionKey
        return options
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let storage = MemoryStorage(capacity: 1 << 28)
        let store = try Store.open(path: "db", options: options(io: storage))
        var random = SeededGenerator(seed: 41)
        states[1] = PatternTree.State()
        for _ in 0..<12 {
            let writer = try store.beginWrite()
            states[writer.version] = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        store.close()
        pristine = try XCTUnwrap(storage.contents(ofFile: "db"))
    }

    func testFlippedBytesNeverCrashOrReturnWrongData() throws {
        var random = SeededGenerator(seed: 42)
        let offsets = Array(0..<128) + Array(500..<600) + Array(1000..<1100)
            + (0..<(longTests ? 5000 : 600)).map { _ in Int.random(in: 0..<pristine.count, using: &random) }
        for offset in offsets {
            var image = pristine
            image[offset] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            try expectErrorOrCommittedContent(image, label: "bit flipped at byte \(offset)")
        }
    }

    func testZeroedPagesNeverCrashOrReturnWrongData() throws {
        for page in 0..<(pristine.count / 4096) {
            var image = pristine
            image.replaceSubrange((page * 4096)..<((page + 1) * 4096), with: repeatElement(0, count: 4096))
            try expectErrorOrCommittedContent(image, label: "page \(page) zeroed")
        }
    }

    func testTruncatedFilesOnDiskNeverCrash() throws {
        var random = SeededGenerator(seed: 43)
        let sizes = [0, 1, 100, 2047, 2048, 4095, 4096, 4097, 8192, pristine.count - 1, pristine.count - 4096]
            + (0..<(longTests ? 300 : 40)).map { _ in Int.random(in: 0..<pristine.count, using: &random) }
        for (index, size) in sizes.enumerated() where size >= 0 {
            // Real files and a real mmap: touching a page past the end of the file would kill the process.
            let path = storePath("truncated-\(index)")
            try Data(pristine.prefix(size)).write(to: URL(fileURLWithPath: path))
            do {
                let store = try Store.open(path: path, options: options())
                defer { store.close() }
                try checkContent(store, label: "truncated to \(size) bytes")
            } catch let error as StrataError {
                XCTAssertFalse(error.description.isEmpty)
            }
        }
    }

    private func expectErrorOrCommittedContent(_ image: [UInt8], label: String) throws {
        let storage = MemoryStorage(capacity: 1 << 28)
        try storage.setContents(image, ofFile: "db")
        do {
            let store = try Store.open(path: "db", options: options(io: storage))
            defer { store.close() }
            try checkContent(store, label: label)
        } catch let error as StrataError {
            XCTAssertFalse(error.description.isEmpty, label)
        }
    }

    /// Reads everything; a read either verifies (and then matches the committed state) or throws StrataError.
    private func checkContent(_ store: Store, label: String) throws {
        let reader = try store.beginRead()
        defer { reader.end() }
        do {
            let state = try PatternTree.read(reader)
            XCTAssertEqual(state, states[reader.version], "\(label): wrong data for version \(reader.version)")
        } catch is PatternTree.Mismatch {
            XCTFail("\(label): a damaged node was returned as if it were intact")
        }
        _ = try? store.verify(tableNodes: PatternTree.visit)
    }
}

import Foundation
import StrataTestSupport
import XCTest

@testable import StrataStorage

/// Whole, checksummed nodes in the wrong place: two nodes' pages swapped, a node copied over another, a range of
/// pages moved by a few pages, an older copy of a page (saved from an earlier version of the file) put back.
/// Every node passes its own checksum, so only the binding of a node to its page and version (issue #22 item 1,
/// docs/FILE-FORMAT.md, "Binding a node to its place") can tell: every trial must end in a `StrataError` or in the exact data of a
/// committed version, never in another object's text, and `verifyAll` must never pass a file that reads wrong.
///
/// The store holds 2,000 objects whose strings (1,100 to 10,000 bytes, so most span two or three pages) live in
/// nodes of their own, then six commits that rewrite 150 of them each and reuse the pages earlier versions freed.
/// 3 trials of each kind by default (each reads 2,000 texts and verifies the store: a few tenths of a second in a
/// debug build), 60 with `STRATA_LONG_TESTS=1`. `EncryptedNodePlacementDamageTests` runs the same on an encrypted
/// file.
class NodePlacementDamageTests: XCTestCase {
    /// The key the store is encrypted with (none here).
    class var encryptionKey: [UInt8]? { nil }

    private var trials: Int { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 60 : 3 }
    private static let pageSize = 4096
    private static let objectCount = 2_000

    /// The file after every commit, and the generation of every object's text at every version.
    struct Fixture {
        var images: [[UInt8]] = []
        var generations: [UInt64: [Int]] = [:]
        /// `texts[key][generation]`: every text ever written, made once.
        var texts: [[String]] = []
        /// First page and page count of every node the newest version reaches.
        var liveNodes: [(page: Int, pages: Int)] = []
        var final: [UInt8] { images[images.count - 1] }
    }

    nonisolated(unsafe) private static var fixtures: [Bool: Fixture] = [:]
    private static let fixtureLock = NSLock()

    private var fixture: Fixture {
        get throws {
            Self.fixtureLock.lock()
            defer { Self.fixtureLock.unlock() }
            let encrypted = Self.encryptionKey != nil
            if let fixture = Self.fixtures[encrypted] { return fixture }
            let fixture = try Self.makeFixture()
            Self.fixtures[encrypted] = fixture
            return fixture
        }
    }

    // MARK: Trials

    func testSwappedNodesAreAnErrorNeverAnotherObjectsText() throws {
        let fixture = try fixture
        var random = SeededGenerator(seed: 2026_11_26)
        let outcomes = try (0..<trials).map { trial in
            var image = fixture.final
            let (first, second) = Self.twoNodes(of: fixture, sameLength: trial % 3 != 2, random: &random)
            // Whole nodes of one length, or (one trial in three) only their first pages.
            let pages = trial % 3 != 2 ? first.pages : 1
            let firstBytes = Array(Self.pages(first.page, count: pages, of: image))
            image.replaceSubrange(Self.range(first.page, pages), with: Self.pages(second.page, count: pages, of: image))
            image.replaceSubrange(Self.range(second.page, pages), with: firstBytes)
            return try check(image, fixture: fixture, label: "pages \(first.page) and \(second.page) swapped (\(pages) pages)")
        }
        expectDamageFound(outcomes)
    }

    func testACopiedNodeIsAnErrorNeverAnotherObjectsText() throws {
        let fixture = try fixture
        var random = SeededGenerator(seed: 2026_11_27)
        let outcomes = try (0..<trials).map { trial in
            var image = fixture.final
            let (source, target) = Self.twoNodes(of: fixture, sameLength: trial % 3 != 2, random: &random)
            let pages = trial % 3 != 2 ? source.pages : 1
            image.replaceSubrange(Self.range(target.page, pages), with: Self.pages(source.page, count: pages, of: image))
            return try check(image, fixture: fixture, label: "page \(source.page) copied over \(target.page) (\(pages) pages)")
        }
        expectDamageFound(outcomes)
    }

    func testShiftedPagesAreAnErrorNeverAnotherObjectsText() throws {
        let fixture = try fixture
        var random = SeededGenerator(seed: 2026_11_28)
        let pageCount = fixture.final.count / Self.pageSize
        var outcomes: [Outcome] = []
        while outcomes.count < trials {
            let start = fixture.liveNodes[Int.random(in: 0..<fixture.liveNodes.count, using: &random)].page
            let count = Int.random(in: 1...12, using: &random)
            let shift = Int.random(in: 1...4, using: &random) * (Bool.random(using: &random) ? 1 : -1)
            guard start + shift >= 1, start + shift + count <= pageCount, start + count <= pageCount else { continue }
            var image = fixture.final
            image.replaceSubrange(Self.range(start + shift, count), with: Self.pages(start, count: count, of: fixture.final))
            outcomes.append(try check(image, fixture: fixture, label: "pages \(start) ..< \(start + count) moved by \(shift)"))
        }
        expectDamageFound(outcomes)
    }

    func testAStalePagePutBackIsAnErrorNeverAnOlderText() throws {
        let fixture = try fixture
        var random = SeededGenerator(seed: 2026_11_29)
        let newest = try XCTUnwrap(fixture.generations.keys.max())
        var outcomes: [Outcome] = []
        var tries = 0
        while outcomes.count < trials {
            tries += 1
            guard tries < trials * 1_000 else { return XCTFail("the updates should have reused pages earlier versions freed") }
            // A page on which an earlier version of the file holds another whole node than the newest version does.
            let index = Int.random(in: 0..<(fixture.images.count - 1), using: &random)
            let node = fixture.liveNodes[Int.random(in: 0..<fixture.liveNodes.count, using: &random)]
            let old = fixture.images[index]
            // Not a node of the newest commit: its record lists those, and opening would fall back past it.
            guard Self.writer(ofNodeAt: node.page, in: fixture.final) < newest, let pages = Self.wholeNodePages(at: node.page, in: old),
                Self.pages(node.page, count: pages, of: old) != Self.pages(node.page, count: pages, of: fixture.final)
            else { continue }
            var image = fixture.final
            image.replaceSubrange(Self.range(node.page, pages), with: Self.pages(node.page, count: pages, of: old))
            outcomes.append(try check(image, fixture: fixture, label: "page \(node.page) put back as of image \(index)"))
        }
        expectDamageFound(outcomes)
    }

    // MARK: Checking

    enum Outcome { case error, intact }

    /// Opens `image`, reads every object and verifies the store: an error, or the exact texts of the version it
    /// opened at. A wrong text, or a verification that passes a file that read wrong, fails the test.
    private func check(_ image: [UInt8], fixture: Fixture, label: String) throws -> Outcome {
        let storage = MemoryStorage(capacity: 1 << 28)
        try storage.setContents(image, ofFile: "db")
        let store: Store
        do {
            store = try Store.open(path: "db", options: Self.options(io: storage))
        } catch is StrataError {
            return .error
        }
        defer { store.close() }
        var readsRight = false
        do {
            let reader = try store.beginRead()
            defer { reader.end() }
            let generations = try XCTUnwrap(fixture.generations[reader.version], "\(label): version \(reader.version)")
            let catalog = try Catalog(reader: reader)
            // The catalog owns its tables (they keep it unowned): it must live through the reads.
            let (keys, wrong, failed) = try withExtendedLifetime(catalog) {
                try Self.readTexts(of: XCTUnwrap(catalog.table(named: "Doc")), generations: generations, texts: fixture.texts)
            }
            XCTAssertEqual(keys, Self.objectCount, "\(label): wrong number of objects")
            XCTAssertEqual(wrong, 0, "\(label): \(wrong) objects read another text than version \(reader.version) wrote")
            readsRight = wrong == 0 && failed == 0 && keys == Self.objectCount
        } catch let error as StrataError {
            XCTAssertFalse(error.description.isEmpty)
        }
        do {
            try store.verifyAll()
            XCTAssertTrue(readsRight, "\(label): verifyAll passed a file that does not read right")
        } catch let error as StrataError {
            if case .corruptFile(let path, _, _) = error {
                XCTAssertEqual(path, "db", label)
            } else {
                XCTFail("\(label): damage should be reported as corruptFile, not \(error)")
            }
            return .error
        }
        return readsRight ? .intact : .error
    }

    /// Reads every object's text, each on its own (an error reading one does not stop the others): how many objects
    /// there are, how many of them read another text than `generations` says (or sit under a wrong key), and how
    /// many reads failed.
    private static func readTexts(
        of table: Table, generations: [Int], texts: [[String]]
    ) throws -> (objects: Int, wrong: Int, failed: Int) {
        let column = try XCTUnwrap(table.column(named: "text")).key
        let keys = try table.keys()
        var wrong = 0
        var failed = 0
        for key in keys {
            guard (0..<Int64(objectCount)).contains(key.rawValue) else {
                wrong += 1
                continue
            }
            do {
                let expected = texts[Int(key.rawValue)][generations[Int(key.rawValue)]]
                if try table.value(key, column: column) != .string(expected) { wrong += 1 }
            } catch is StrataError {
                failed += 1
            }
        }
        return (keys.count, wrong, failed)
    }

    /// Most damage must be found; a trial may miss only what no read depends on.
    private func expectDamageFound(_ outcomes: [Outcome], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(outcomes.count, trials, file: file, line: line)
        XCTAssertGreaterThan(outcomes.filter { $0 == .error }.count, 0, "no damage was found at all", file: file, line: line)
    }

    // MARK: The store

    private static func options(io: StorageIO) -> StoreOptions {
        var options = StoreOptions(durability: .full, pageSize: pageSize, io: io)
        options.encryptionKey = encryptionKey
        return options
    }

    /// Object `key`'s text at `generation`: 1,100 to 10,000 bytes that name both, so no two are alike.
    static func text(key: Int, generation: Int) -> String {
        let length = 1_100 + (key &* 7_919 &+ generation &* 104_729) % 8_900
        let unit = Array("<\(key).\(generation)>".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + unit.count)
        while bytes.count < length { bytes.append(contentsOf: unit) }
        return String(decoding: bytes[0..<length], as: UTF8.self)
    }

    private static func makeFixture() throws -> Fixture {
        let storage = MemoryStorage(capacity: 1 << 28)
        let store = try Store.open(path: "db", options: options(io: storage))
        defer { store.close() }
        var fixture = Fixture()
        var generations = [Int](repeating: 0, count: objectCount)
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let table = try catalog.createTable(named: "Doc")
        let column = try table.addColumn(named: "text", type: .value(.string))
        for key in 0..<objectCount {
            _ = try table.insert([(column, .string(text(key: key, generation: 0)))], key: ObjectKey(Int64(key)))
        }
        try catalog.flush()
        try writer.commit()
        fixture.generations[writer.version] = generations
        fixture.images.append(try XCTUnwrap(storage.contents(ofFile: "db")))
        var random = SeededGenerator(seed: 22)
        for _ in 0..<6 {
            let writer = try store.beginWrite()
            let catalog = try Catalog(writer: writer)
            let table = try XCTUnwrap(catalog.table(named: "Doc"))
            for _ in 0..<150 {
                let key = Int.random(in: 0..<objectCount, using: &random)
                generations[key] += 1
                try table.set(ObjectKey(Int64(key)), column: column, to: .string(text(key: key, generation: generations[key])))
            }
            try catalog.flush()
            try writer.commit()
            fixture.generations[writer.version] = generations
            fixture.images.append(try XCTUnwrap(storage.contents(ofFile: "db")))
        }
        fixture.texts = generations.indices.map { key in (0...generations[key]).map { text(key: key, generation: $0) } }
        let reader = try store.beginRead()
        defer { reader.end() }
        try Catalog(reader: reader).forEachNode { ref in
            let page = Int(ref.page)
            if let pages = wholeNodePages(at: page, in: fixture.final) { fixture.liveNodes.append((page, pages)) }
        }
        XCTAssertGreaterThan(fixture.liveNodes.count, objectCount, "every text should have a node of its own")
        return fixture
    }

    // MARK: Pages

    private static func range(_ page: Int, _ count: Int) -> Range<Int> {
        (page * pageSize)..<((page + count) * pageSize)
    }

    private static func pages(_ page: Int, count: Int, of image: [UInt8]) -> ArraySlice<UInt8> {
        image[range(page, count)]
    }

    /// The pages of the whole node whose checksum holds at `page` of `image`, or nil when there is none.
    private static func wholeNodePages(at page: Int, in image: [UInt8]) -> Int? {
        let sealBytes = encryptionKey == nil ? 0 : NodeCipher.sealByteCount
        return image.withUnsafeBytes { bytes -> Int? in
            let offset = page * pageSize
            guard offset + NodeHeader.byteCount <= bytes.count else { return nil }
            let start = bytes.baseAddress! + offset
            guard let header = NodeHeader.decode(from: start) else { return nil }
            let end = offset + NodeHeader.byteCount + Int(header.length) + sealBytes
            guard end <= bytes.count,
                Checksum.hash(start + 8, count: end - offset - 8, seed: 0) == start.u64(at: 0)
            else { return nil }
            return (end - offset + pageSize - 1) / pageSize
        }
    }

    /// The version in the header of the node at `page` of `image`.
    private static func writer(ofNodeAt page: Int, in image: [UInt8]) -> UInt64 {
        image.withUnsafeBytes { $0.baseAddress!.u64(at: page * pageSize + 16) }
    }

    /// Two different live nodes, of the same page count when `sameLength` (and some count has two).
    private static func twoNodes(
        of fixture: Fixture, sameLength: Bool, random: inout SeededGenerator
    ) -> ((page: Int, pages: Int), (page: Int, pages: Int)) {
        let nodes = fixture.liveNodes
        while true {
            let first = nodes[Int.random(in: 0..<nodes.count, using: &random)]
            let second = nodes[Int.random(in: 0..<nodes.count, using: &random)]
            guard first.page != second.page, !sameLength || first.pages == second.pages else { continue }
            // Ranges of whole nodes of one length never overlap; single first pages never do either.
            return (first, second)
        }
    }
}

/// The same damage in an encrypted file: a node's code covers its page number, but an older copy of a page (same
/// page, older version) authenticates, so only the reference's version tag catches it.
final class EncryptedNodePlacementDamageTests: NodePlacementDamageTests {
    override class var encryptionKey: [UInt8]? { (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) } }

    override func testSwappedNodesAreAnErrorNeverAnotherObjectsText() throws {
        try super.testSwappedNodesAreAnErrorNeverAnotherObjectsText()
    }

    override func testACopiedNodeIsAnErrorNeverAnotherObjectsText() throws {
        try super.testACopiedNodeIsAnErrorNeverAnotherObjectsText()
    }

    override func testShiftedPagesAreAnErrorNeverAnotherObjectsText() throws {
        try super.testShiftedPagesAreAnErrorNeverAnotherObjectsText()
    }

    override func testAStalePagePutBackIsAnErrorNeverAnOlderText() throws {
        try super.testAStalePagePutBackIsAnErrorNeverAnOlderText()
    }
}

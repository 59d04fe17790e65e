import Foundation
import StrataTestSupport
import XCTest

@testable import StrataStorage

/// Nodes bound to their places (docs/FILE-FORMAT.md, "Nodes"): a new file is format 3, each node's header names its
/// own page and each reference carries the tag of the version that wrote its node; a file of format 1 keeps its
/// format and its nodes unbound, and keeps opening. `NodePlacementDamageTests` checks what the binding catches.
final class NodeBindingTests: PagerTestCase {
    func testAReferenceHoldsItsPageAndTheTagOfItsVersion() {
        let ref = NodeRef(page: 123_456, writtenBy: 77)
        XCTAssertEqual(ref.page, 123_456)
        XCTAssertEqual(ref.versionTag, 77)
        XCTAssertEqual(ref.description, "#123456")
        XCTAssertEqual(NodeRef(rawValue: ref.rawValue), ref)
        // The tag is the version's low 24 bits, never 0, which means "unbound".
        XCTAssertEqual(NodeRef(page: 5, writtenBy: 1 << 24).versionTag, (1 << 24) - 1)
        XCTAssertEqual(NodeRef(page: 5, writtenBy: (1 << 24) + 9).versionTag, 9)
        XCTAssertEqual(NodeRef(page: NodeRef.pageLimit - 1, writtenBy: .max).page, NodeRef.pageLimit - 1)
        let unbound = NodeRef(page: 42, writtenBy: nil)
        XCTAssertEqual(unbound.rawValue, 42)
        XCTAssertEqual(unbound.versionTag, 0)
        XCTAssertLessThan(NodeRef(page: 3, writtenBy: 900), NodeRef(page: 4, writtenBy: 1))
    }

    func testANewFileBindsEveryNodeToItsPageAndVersion() throws {
        let storage = MemoryStorage()
        let store = try Store.open(path: "db", options: StoreOptions(io: storage))
        var random = SeededGenerator(seed: 5)
        try commitSteps(store, 8, random: &random)
        let image = try XCTUnwrap(storage.contents(ofFile: "db"))
        XCTAssertEqual(image[8], 3, "format 3")
        let reader = try store.beginRead()
        var refs: [NodeRef] = [reader.meta.root, reader.meta.freeList, reader.meta.commitRecord]
        try PatternTree.visit(reader) { refs.append($0) }
        reader.end()
        store.close()
        for ref in refs where !ref.isNone {
            let header = try XCTUnwrap(Self.header(at: ref.page, of: image), "\(ref)")
            XCTAssertEqual(header.page, ref.page, "the header of \(ref) names its page")
            XCTAssertEqual(ref.versionTag, NodeRef.tag(of: header.version), "\(ref) carries its writer's tag")
        }
    }

    func testAFormat1FileKeepsItsFormatAndUnboundNodesAndKeepsOpening() throws {
        let storage = MemoryStorage()
        try Store.open(path: "db", options: StoreOptions(io: storage)).close()
        // An empty file as Strata wrote it before nodes were bound: format 1.
        var bytes = try XCTUnwrap(storage.contents(ofFile: "db"))
        bytes[8] = 1
        let checksum = bytes.withUnsafeBytes { Checksum.hash($0.baseAddress!, count: 16, seed: FileHeader.checksumSeed) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
        try storage.setContents(bytes, ofFile: "db")

        var store = try Store.open(path: "db", options: StoreOptions(io: storage))
        var random = SeededGenerator(seed: 6)
        let state = try commitSteps(store, 8, random: &random)
        store.close()
        let image = try XCTUnwrap(storage.contents(ofFile: "db"))
        XCTAssertEqual(image[8], 1, "a format-1 file stays format 1, which older versions of Strata read")

        store = try Store.open(path: "db", options: StoreOptions(io: storage))
        defer { store.close() }
        XCTAssertEqual(try checkedState(store).1, state)
        let reader = try store.beginRead()
        defer { reader.end() }
        var refs: [NodeRef] = [reader.meta.root, reader.meta.freeList, reader.meta.commitRecord]
        try PatternTree.visit(reader) { refs.append($0) }
        for ref in refs where !ref.isNone {
            XCTAssertEqual(ref.versionTag, 0, "\(ref) is unbound")
            XCTAssertEqual(try XCTUnwrap(Self.header(at: ref.page, of: image)).page, 0, "the header of \(ref) names no page")
        }
    }

    func testACompactedCopyOfAFormat1FileIsFormat3() throws {
        let old = storePath("old"), new = storePath("new")
        try Store.open(path: old).close()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: old)))
        bytes[8] = 1
        let checksum = bytes.withUnsafeBytes { Checksum.hash($0.baseAddress!, count: 16, seed: FileHeader.checksumSeed) }
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
        try Data(bytes).write(to: URL(fileURLWithPath: old))
        let store = try Store.open(path: old)
        defer { store.close() }
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let table = try catalog.createTable(named: "Note")
        let text = try table.addColumn(named: "text", type: .value(.string))
        for n in 0..<50 { _ = try table.insert([(text, .string(String(repeating: "note \(n) ", count: 300)))]) }
        try catalog.flush()
        try writer.commit()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: old))[8], 1, "writing keeps format 1")

        let reader = try store.beginRead()
        defer { reader.end() }
        try Store.writeCompactedCopy(of: try Catalog(reader: reader), to: new, options: StoreOptions())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: new))[8], 3, "the copy binds its nodes")
        let copy = try Store.open(path: new)
        defer { copy.close() }
        XCTAssertEqual(try copy.verifyAll().objects, 50)
    }

    func testANodeCopiedOverAnotherIsCorruptFileNamingThePage() throws {
        let storage = MemoryStorage()
        let store = try Store.open(path: "db", options: StoreOptions(io: storage))
        var random = SeededGenerator(seed: 7)
        try commitSteps(store, 12, random: &random)
        let reader = try store.beginRead()
        var refs: [NodeRef] = []
        try PatternTree.visit(reader) { refs.append($0) }
        let newest = reader.version
        reader.end()
        store.close()
        var image = try XCTUnwrap(storage.contents(ofFile: "db"))
        // Nodes the newest commit record does not list (written before the last commit), so opening takes the
        // newest version and the copy is found by the read, not by recovery.
        let older = try refs.map { ref in (ref, try XCTUnwrap(Self.header(at: ref.page, of: image))) }
            .filter { $0.1.version < newest }
            .map { (ref: $0.0, pages: ($0.1.length + 32 + 4095) / 4096) }
        let pair = older.lazy.flatMap { first in older.lazy.map { (first, $0) } }
            .first { $0.0.ref != $0.1.ref && $0.0.pages == $0.1.pages }
        let (target, source) = try XCTUnwrap(pair, "two older nodes of one length")
        let bytes = Int(target.pages) * 4096
        let from = Int(source.ref.page) * 4096, to = Int(target.ref.page) * 4096
        image.replaceSubrange(to..<(to + bytes), with: image[from..<(from + bytes)])
        try storage.setContents(image, ofFile: "db")

        let damaged = try Store.open(path: "db", options: StoreOptions(io: storage))
        defer { damaged.close() }
        XCTAssertThrowsError(try checkedState(damaged)) { error in
            guard case StrataError.corruptFile(let path, let location, let detail) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, "db")
            XCTAssertEqual(location, "node \(target.ref) (page \(target.ref.page))")
            XCTAssertTrue(detail.contains("node of page \(source.ref.page), not of page \(target.ref.page)"), detail)
        }
    }

    private static func header(at page: UInt64, of image: [UInt8]) -> NodeHeader? {
        image.withUnsafeBytes { NodeHeader.decode(from: $0.baseAddress! + Int(page) * 4096) }
    }
}

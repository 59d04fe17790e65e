import Foundation
import StrataTestSupport
import XCTest

@testable import StrataStorage

/// Nodes (the table layer's catalog, branches, clusters, index leaves, long values and metadata, and the pager's
/// free lists) whose payload bytes are changed and whose checksum is then recomputed: what a bug in a writer, or a crafted file, would leave behind.
/// The pager's checksums cannot catch these, so each decoder must: reading every object, every index and every
/// backlink, verifying, and writing must give a `StrataError` or an answer, never stop the program.
/// (`DamageTests` covers damage the checksums catch.) 200 trials by default (most end in an error: 163 of
/// them when written), 5,000 with `STRATA_LONG_TESTS=1`.
final class NodeDamageFuzzTests: XCTestCase {
    private var trials: Int { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 5_000 : 200 }

    func testReSealedDamageInAnyNodeNeverStopsTheProgram() throws {
        let pristine = try Self.makeStore()
        let nodes = Self.nodeStarts(in: pristine)
        XCTAssertGreaterThan(nodes.count, 20)
        var random = SeededGenerator(seed: 2026_11_24)
        var failures = 0
        for _ in 0..<trials {
            var image = pristine
            let node = nodes[Int.random(in: 0..<nodes.count, using: &random)]
            let length = Int(image.withUnsafeBytes { $0.baseAddress!.u32(at: node + 12) })
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let offset = node + NodeHeader.byteCount + Int.random(in: 0..<max(1, length), using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: image[offset] = UInt8.random(in: 0...255, using: &random)
                case 1: image[offset] &+= UInt8.random(in: 1...3, using: &random)
                default: image[offset] = [0, 0xFF, 0x7F, 0x80].randomElement(using: &random)!
                }
            }
            image.withUnsafeMutableBytes { bytes in
                let start = bytes.baseAddress! + node
                start.setU64(Checksum.hash(start + 8, count: NodeHeader.byteCount - 8 + length, seed: 0), at: 0)
            }
            do {
                try Self.useEverything(image)
            } catch is StrataError {
                failures += 1
            }
        }
        // Most changes are noticed; some land in bytes no read depends on (padding, a value nobody checks). Both
        // must occur, or the damage missed the decoders (it once did: the commit record caught every change).
        XCTAssertGreaterThan(failures, trials / 4)
        XCTAssertLessThan(failures, trials)
    }

    /// The table layer reads nodes without knowing their file, so its errors name the file only once they leave
    /// the store (`StrataError.inFile`): every error of `verifyAll` names the file, whichever node's first payload
    /// byte (a magic number, mostly) is damaged.
    func testTableLayerDamageNamesTheFile() throws {
        let pristine = try Self.makeStore()
        var damagedNodes = 0
        for node in Self.nodeStarts(in: pristine) {
            var image = pristine
            let length = Int(image.withUnsafeBytes { $0.baseAddress!.u32(at: node + 12) })
            image[node + NodeHeader.byteCount] ^= 0xFF
            image.withUnsafeMutableBytes { bytes in
                let start = bytes.baseAddress! + node
                start.setU64(Checksum.hash(start + 8, count: NodeHeader.byteCount - 8 + length, seed: 0), at: 0)
            }
            let storage = MemoryStorage(capacity: 1 << 26)
            try storage.setContents(image, ofFile: "damaged.strata")
            let store = try Store.open(path: "damaged.strata", options: StoreOptions(durability: .none, io: storage))
            defer { store.close() }
            do {
                try store.verifyAll()
            } catch StrataError.corruptFile(let path, _, _) {
                XCTAssertEqual(path, "damaged.strata")
                damagedNodes += 1
            }
        }
        XCTAssertGreaterThan(damagedNodes, 10)
    }

    /// A node written by a later version than the one being read, whole and checksummed, on a page that version
    /// reaches: what a page reused under a reader leaves (a broken protocol, a lock file deleted under running
    /// processes). Its bytes belong to another version, so reading it is an error, never an answer.
    func testANodeFromALaterVersionIsAnErrorNotAnAnswer() throws {
        let pristine = try Self.makeStore()
        var refused = 0
        for node in Self.nodeStarts(in: pristine) {
            var image = pristine
            let (version, length) = image.withUnsafeBytes {
                ($0.baseAddress!.u64(at: node + 16), Int($0.baseAddress!.u32(at: node + 12)))
            }
            guard version == 2 else { continue }  // the bulk commit's nodes; the newest version is 3
            image.withUnsafeMutableBytes { bytes in
                let start = bytes.baseAddress! + node
                start.setU64(50, at: 16)
                start.setU64(Checksum.hash(start + 8, count: NodeHeader.byteCount - 8 + length, seed: 0), at: 0)
            }
            do {
                try Self.useEverything(image)
            } catch StrataError.corruptFile(_, _, let detail) where detail.contains("after the version") {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 10)
    }

    /// A store of two tables with every column type, a primary key, a string index, a compound index, links,
    /// lists and long values: its file's bytes.
    private static func makeStore() throws -> [UInt8] {
        let storage = MemoryStorage(capacity: 1 << 26)
        let store = try Store.open(path: "db", options: StoreOptions(durability: .none, io: storage))
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let person = try catalog.createTable(named: "Person")
        let id = try person.addColumn(named: "id", type: .value(.int))
        let name = try person.addColumn(named: "name", type: .value(.string))
        let age = try person.addColumn(named: "age", type: .value(.int), nullable: true)
        let score = try person.addColumn(named: "score", type: .value(.double))
        let ratio = try person.addColumn(named: "ratio", type: .value(.float), nullable: true)
        let born = try person.addColumn(named: "born", type: .value(.timestamp))
        let token = try person.addColumn(named: "token", type: .value(.uuid))
        let hired = try person.addColumn(named: "hired", type: .value(.bool))
        let blob = try person.addColumn(named: "blob", type: .value(.binary))
        let tags = try person.addColumn(named: "tags", type: .list(.string))
        let numbers = try person.addColumn(named: "numbers", type: .list(.int))
        let friend = try person.addColumn(named: "friend", type: .value(.link), target: person.key)
        let friends = try person.addColumn(named: "friends", type: .list(.link), target: person.key)
        try person.setPrimaryKey(id)
        try person.addIndex(on: [name])
        try person.addIndex(on: [hired, age])
        var random = SeededGenerator(seed: 7)
        var keys: [ObjectKey] = []
        for n in 0..<600 {
            let text = n % 97 == 0 ? String(repeating: "long-é-", count: 300) : "name-\(n % 50)"
            keys.append(try person.insert([
                (id, .int(Int64(n))), (name, .string(text)), (age, n % 7 == 0 ? .null : .int(Int64(n % 90))),
                (score, .double(Double(n) * 1.5)), (ratio, .float(Float(n) / 8)), (born, .timestamp(Int64(n) * 86_400)),
                (token, .uuid(UUID())), (hired, .bool(n % 2 == 0)),
                (blob, .binary((0..<(n % 5)).map { UInt8($0) })),
                (tags, .list([.string("t\(n % 3)"), .string("u")])), (numbers, .list([.int(Int64(n)), .int(-1)])),
            ]))
        }
        for key in keys {
            try person.set(key, column: friend, to: .link(keys[Int.random(in: 0..<keys.count, using: &random)]))
            try person.set(key, column: friends, to: .list([.link(keys[Int.random(in: 0..<keys.count, using: &random)])]))
        }
        try catalog.flush()
        try writer.commit()
        // A second, small commit: a version's commit record lists the nodes written since the last durable version
        // with their checksums, and opening falls back past a version whose listed node changed. The first commit's
        // nodes are now listed nowhere, so their damage reaches the decoders.
        let second = try store.beginWrite()
        let secondCatalog = try Catalog(writer: second)
        try secondCatalog.setMetadata(Array("{\"v\": 1}".utf8), forKey: "schema")
        try secondCatalog.flush()
        try second.commit()
        store.close()
        return try XCTUnwrap(storage.contents(ofFile: "db"))
    }

    /// The byte offsets of the nodes in `image` whose checksum holds (the live ones and some stale free ones; the
    /// last commit's record is one of them, and changing it makes the file open at the version before).
    private static func nodeStarts(in image: [UInt8]) -> [Int] {
        image.withUnsafeBytes { bytes in
            stride(from: 4096, to: bytes.count, by: 4096).filter { offset in
                let start = bytes.baseAddress! + offset
                guard let header = NodeHeader.decode(from: start),
                    offset + NodeHeader.byteCount + Int(header.length) <= bytes.count
                else { return false }
                return Checksum.hash(start + 8, count: NodeHeader.byteCount - 8 + Int(header.length), seed: 0) == start.u64(at: 0)
            }
        }
    }

    /// Opens `image` and reads everything through every path a reader has, verifies it, then writes to it.
    private static func useEverything(_ image: [UInt8]) throws {
        let storage = MemoryStorage(capacity: 1 << 26)
        try storage.setContents(image, ofFile: "db")
        let store = try Store.open(path: "db", options: StoreOptions(durability: .none, io: storage))
        defer { store.close() }
        do {
            let reader = try store.beginRead()
            defer { reader.end() }
            let catalog = try Catalog(reader: reader)
            _ = try catalog.metadata(forKey: "schema")
            for table in catalog.tables {
                _ = try table.count()
                for key in try table.keys() {
                    for column in table.columns { _ = try table.value(key, column: column.key) }
                    _ = try table.backlinkCount(of: key)
                }
                for spec in table.indexSpecs {
                    _ = try table.lookup(spec.key, from: nil, to: nil)
                    _ = try table.lookupCount(spec.key, equal: [.string("name-3")])
                }
                _ = try table.find(primaryKey: .int(17))
                try table.forEachCluster { leaf in
                    for column in table.columns where column.type == .value(.string) {
                        _ = try leaf.stringColumn(column.key).matches(prefix: "name-1")
                    }
                    return true
                }
            }
            try catalog.verify()
        }
        let writer = try store.beginWrite()
        do {
            let catalog = try Catalog(writer: writer)
            for table in catalog.tables {
                let keys = try table.keys()
                if let first = keys.first { try table.delete(first) }
                if keys.count > 1 {
                    try table.set(keys[keys.count / 2], column: table.columns[1].key, to: .string("changed"))
                }
            }
            try catalog.flush()
            try writer.commit()
        } catch {
            writer.rollback()
            throw error
        }
    }
}

import Foundation
@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A cluster whose variable-size and 16-byte columns took rows only at the end keeps their stored blocks and
/// encodes the appended rows after the stored bytes (`ClusterBuffer+Appending`): the node it writes must be the
/// one a decode and a fresh encoding write, and every use of the rows must see the stored rows then the appended.
final class ClusterAppendTests: XCTestCase {
    private let specs = [
        ClusterAppendTests.spec(1, "text", .value(.string), nullable: true),
        ClusterAppendTests.spec(2, "name", .value(.string)),
        ClusterAppendTests.spec(3, "id", .value(.uuid), nullable: true),
        ClusterAppendTests.spec(4, "count", .value(.int), nullable: true),
        ClusterAppendTests.spec(5, "data", .value(.binary)),
    ]

    private static func spec(_ key: UInt32, _ name: String, _ type: ColumnType, nullable: Bool = false) -> ColumnSpec {
        ColumnSpec(
            key: ColumnKey(rawValue: key), name: name, type: type, isNullable: nullable, elementsNullable: false,
            target: nil, origin: nil, defaultValue: .null)
    }

    private func randomRow(_ generator: inout SeededGenerator, long: Bool) -> [StorageValue] {
        func text(_ length: Int) -> String {
            String((0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &generator))) })
        }
        let textLength = long && Int.random(in: 0..<4, using: &generator) == 0 ? 1_500 : Int.random(in: 0..<40, using: &generator)
        return [
            Bool.random(using: &generator) ? .null : .string(text(textLength)),
            .string(text(Int.random(in: 0..<12, using: &generator))),
            Bool.random(using: &generator) ? .null : .uuid(UUID()),
            Bool.random(using: &generator) ? .null : .int(Int64.random(in: -1_000...1_000, using: &generator)),
            .binary((0..<Int.random(in: 0..<20, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }),
        ]
    }

    private func append(_ rows: [[StorageValue]], keys: Range<Int64>, to cluster: ClusterBuffer) throws {
        for (key, row) in zip(keys, rows) {
            cluster.keys.append(key)
            for (index, column) in cluster.columns.enumerated() { try column.insert(row[index], at: cluster.rowCount - 1) }
            cluster.isDirty = true
        }
    }

    private func load(_ ref: NodeRef, in space: MemoryNodeSpace) throws -> ClusterBuffer {
        try ClusterBuffer(view: try ClusterView(try space.read(ref), ref: ref), specs: specs)
    }

    /// Every row of the cluster node `ref` as values (long values read from their nodes).
    private func rows(_ ref: NodeRef, in space: MemoryNodeSpace) throws -> [[StorageValue]] {
        let cluster = try load(ref, in: space)
        return try (0..<cluster.rowCount).map { row in
            try cluster.columns.map { column in try value(column, row, space) }
        }
    }

    private func value(_ column: ColumnBuffer, _ row: Int, _ space: MemoryNodeSpace) throws -> StorageValue {
        if column.isNull(row) { return .null }
        switch column.spec.type {
        case .value(.int): return .int(Int64(bitPattern: column.words[row]))
        case .value(.uuid): return .uuid(UUID(uuid: column.blobs[row].bytes.withUnsafeBytes { $0.load(as: uuid_t.self) }))
        case .value(.binary):
            return .binary(try bytes(column.blobs[row], space))
        default: return .string(String(decoding: try bytes(column.blobs[row], space), as: UTF8.self))
        }
    }

    private func bytes(_ blob: Blob, _ space: MemoryNodeSpace) throws -> [UInt8] {
        guard !blob.external.isNone else { return blob.bytes }
        return Array(try space.read(blob.external).prefix(blob.length))
    }

    func testAppendedRowsEncodeAsAFreshEncodingDoes() throws {
        var generator = SeededGenerator(seed: 0xA99E)
        for round in 0..<120 {
            let space = MemoryNodeSpace()
            let long = round % 3 == 0
            let first = (0..<Int.random(in: 0..<60, using: &generator)).map { _ in randomRow(&generator, long: long) }
            let more = (0..<Int.random(in: 1..<40, using: &generator)).map { _ in randomRow(&generator, long: long) }
            let built = ClusterBuffer.empty(context: ClusterContext(specs: specs))
            try append(first, keys: 0..<Int64(first.count), to: built)
            let stored = try built.encode(in: space)

            let kept = try load(stored, in: space)
            let keys = Int64(first.count)..<Int64(first.count + more.count)
            try append(more, keys: keys, to: kept)
            XCTAssertTrue(kept.columns[0].hasAppendedRows, "round \(round): the text column keeps its stored block")
            let fresh = try load(stored, in: space)
            for column in fresh.columns { _ = column.nulls }
            try append(more, keys: keys, to: fresh)
            XCTAssertFalse(fresh.columns[0].hasAppendedRows)
            XCTAssertEqual(kept.encodedByteCount, fresh.encodedByteCount, "round \(round)")

            let appendedRef = try kept.encode(in: space)
            let freshRef = try fresh.encode(in: space)
            let appendedBytes = Array(try space.read(appendedRef))
            let freshBytes = Array(try space.read(freshRef))
            XCTAssertEqual(appendedBytes.count, freshBytes.count, "round \(round)")
            XCTAssertLessThanOrEqual(appendedBytes.count, kept.encodedByteCount, "round \(round)")
            let expected = first + more
            if !long {
                XCTAssertEqual(appendedBytes, freshBytes, "round \(round)")
            }
            XCTAssertEqual(try rows(appendedRef, in: space), try rows(freshRef, in: space), "round \(round)")
            XCTAssertEqual(try rows(appendedRef, in: space).count, expected.count)
            XCTAssertEqual(try rows(appendedRef, in: space).map { $0[1] }, expected.map { $0[1] }, "round \(round)")
        }
    }

    func testUsingTheRowsDecodesTheStoredRowsBeforeTheAppendedOnes() throws {
        var generator = SeededGenerator(seed: 7)
        let space = MemoryNodeSpace()
        let first = (0..<30).map { _ in randomRow(&generator, long: true) }
        let more = (0..<5).map { _ in randomRow(&generator, long: false) }
        let built = ClusterBuffer.empty(context: ClusterContext(specs: specs))
        try append(first, keys: 0..<30, to: built)
        let stored = try built.encode(in: space)
        let cluster = try load(stored, in: space)
        try append(more, keys: 30..<35, to: cluster)
        XCTAssertEqual(cluster.columns[1].count, 35)
        // A change in the middle, then an insert before the end: both take the decoded form.
        try cluster.columns[1].set(.string("changed"), at: 3)
        XCTAssertFalse(cluster.columns[1].hasAppendedRows)
        XCTAssertEqual(cluster.columns[1].blobs.count, 35)
        XCTAssertEqual(cluster.columns[1].blobs[3].bytes, Array("changed".utf8))
        var expected = first + more
        expected[3][1] = .string("changed")
        for row in 0..<35 { XCTAssertEqual(try value(cluster.columns[1], row, space), expected[row][1], "row \(row)") }
        for row in 0..<35 { XCTAssertEqual(try value(cluster.columns[0], row, space), expected[row][0], "row \(row)") }
        XCTAssertEqual(try rows(try cluster.encode(in: space), in: space), expected)
    }

    func testRemovingEveryRowFreesTheAppendedLongValuesToo() throws {
        let space = MemoryNodeSpace()
        let built = ClusterBuffer.empty(context: ClusterContext(specs: specs))
        let long = String(repeating: "x", count: 2_000)
        try append([[.string(long), .string("a"), .null, .null, .binary([])]], keys: 0..<1, to: built)
        let stored = try built.encode(in: space)
        let cluster = try load(stored, in: space)
        try append([[.string(long), .string("b"), .null, .null, .binary([])]], keys: 1..<2, to: cluster)
        // The appended long value goes to its own node only when encoded: encode once, keeping the buffer.
        _ = try cluster.encode(in: space)
        let freed = cluster.remove(rows: [0, 1])
        XCTAssertEqual(freed.count, 2, "the stored row's long value and the appended row's")
        XCTAssertEqual(Set(freed).count, 2)
    }
}

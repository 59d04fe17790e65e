@testable import StrataStorage
import StrataTestSupport
import XCTest

/// Variable-size blocks are written with packed end offsets (tag 7); blocks with 32-bit offsets (tag 6, files
/// written before) still read, and turn into the packed layout when their cluster is rewritten.
final class VariableBlockTests: XCTestCase {
    /// A cluster node in the tag-6 layout (every end offset a `u32`) with keys `1…` and one variable block.
    private func oldLayoutCluster(_ values: [String], column: ColumnKey) -> [UInt8] {
        var out = ByteWriter(capacity: 256)
        out.u32(ClusterView.magic)
        out.u32(UInt32(values.count))
        out.u32(1)
        out.u32(0)
        let keysHeader = out.bytes.count
        out.u32(0)
        out.u32(0)
        let directory = out.bytes.count
        out.zeros(16)
        out.align(8)
        // Keys 1…n: a packed-int block of width 8, base 1.
        var start = out.bytes.count
        out.u8(BlockEncoding.packedInt.rawValue)
        out.u8(0)
        out.u16(0)
        out.u32(UInt32(values.count))
        out.u8(8)
        out.zeros(7)
        out.i64(1)
        for row in values.indices { out.u8(UInt8(row)) }
        out.align(8)
        out.patchU32(UInt32(start), at: keysHeader)
        out.patchU32(UInt32(out.bytes.count - start), at: keysHeader + 4)
        // The string block: no nulls, no external values, u32 ends padded to 8, then the bytes.
        start = out.bytes.count
        out.u8(BlockEncoding.variable.rawValue)
        out.u8(0)
        out.u16(0)
        out.u32(UInt32(values.count))
        out.zeros(ColumnBlock.bitmapByteCount(values.count))
        var end: UInt32 = 0
        for value in values {
            end += UInt32(value.utf8.count)
            out.u32(end)
        }
        out.align(8)
        for value in values { out.append(Array(value.utf8)) }
        out.patchU32(column.rawValue, at: directory)
        out.patchU32(UInt32(start), at: directory + 4)
        out.patchU32(UInt32(out.bytes.count - start), at: directory + 8)
        return out.bytes
    }

    func testBlocksWithThirtyTwoBitOffsetsStillReadAndAreRewrittenPacked() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Old")
        let text = try table.addColumn(named: "text", type: .value(.string))
        let values = ["alpha", "", "beta-long-value", "name-1", "γ"]
        let ref = try ByteWriter(bytes: oldLayoutCluster(values, column: text)).store(in: fixture.space)
        let view = try ClusterView(try fixture.space.read(ref), ref: ref)
        let block = try XCTUnwrap(try view.block(text))
        XCTAssertEqual(block.kind, .variable)
        XCTAssertEqual(block.endWidth, 32)
        let strings = StringColumnView(block, reader: fixture.space)
        XCTAssertEqual(try (0..<values.count).map { try strings.string($0) }, values)
        XCTAssertEqual(try strings.matches(prefix: "name-").setCount, 1)
        XCTAssertEqual(try strings.matches(equal: "beta-long-value").setCount, 1)

        let cluster = try ClusterBuffer(view: view, specs: table.context.specs)
        try cluster.columns[0].set(.string("changed"), at: 1)
        let rewritten = try cluster.encode(in: fixture.space)
        let rewrittenView = try ClusterView(try fixture.space.read(rewritten), ref: rewritten)
        let packed = try XCTUnwrap(try rewrittenView.block(text))
        XCTAssertEqual(packed.bytes.first, BlockEncoding.packedEndsTag)
        XCTAssertEqual(packed.endWidth, 8, "28 bytes of strings need 8-bit offsets")
        var expected = values
        expected[1] = "changed"
        let packedStrings = StringColumnView(packed, reader: fixture.space)
        XCTAssertEqual(try (0..<values.count).map { try packedStrings.string($0) }, expected)
    }

    func testEndOffsetsTakeSixteenBitsInAFullClusterOfShortStrings() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Names")
        let name = try table.addColumn(named: "name", type: .value(.string), nullable: true)
        for i in 0..<3000 { try table.insert([(name, i % 10 == 0 ? .null : .string("name-\(i)"))]) }
        try fixture.commit()
        let names = try XCTUnwrap(fixture.catalog.table(named: "Names"))
        var rows = 0
        try names.forEachCluster { cluster in
            let column = try cluster.stringColumn(name)
            XCTAssertEqual(column.block.endWidth, 16)
            for row in 0..<cluster.count {
                let i = Int(cluster.key(at: row).rawValue)
                XCTAssertEqual(try column.string(row), i % 10 == 0 ? nil : "name-\(i)")
            }
            rows += cluster.count
            return true
        }
        XCTAssertEqual(rows, 3000)
        var matches = 0
        try names.forEachCluster { cluster in
            matches += try cluster.stringColumn(name).matches(prefix: "name-29").setCount
            return true
        }
        XCTAssertEqual(matches, 100, "name-29, 291…299, 2901…2999 but the nulls")
    }

    func testLongValuesBesideShortOnesKeepTheirOwnNodes() throws {
        let fixture = try TableFixture()
        let table = try fixture.catalog.createTable(named: "Mixed")
        let body = try table.addColumn(named: "body", type: .value(.binary))
        let long = [UInt8](repeating: 7, count: 5000)
        for i in 0..<200 { try table.insert([(body, .binary(i % 50 == 3 ? long : [UInt8(i & 0xFF)]))]) }
        try fixture.commit()
        let stored = try XCTUnwrap(fixture.catalog.table(named: "Mixed"))
        for i in 0..<200 {
            XCTAssertEqual(try stored.value(ObjectKey(Int64(i)), column: body), .binary(i % 50 == 3 ? long : [UInt8(i & 0xFF)]))
        }
        try fixture.catalog.verify()
    }

    func testAnEndOffsetWidthThatIsNoPackingWidthIsReportedAsDamage() throws {
        var out = ByteWriter(capacity: 64)
        out.u8(BlockEncoding.packedEndsTag)
        out.u8(0)
        out.u16(0)
        out.u32(2)
        out.zeros(8)
        out.u8(3)
        out.zeros(7)
        out.zeros(16)
        let bytes = out.bytes
        try bytes.withUnsafeBytes { raw in
            XCTAssertThrowsError(try ColumnBlock(raw, ref: NodeRef(rawValue: 9))) { error in
                guard case StrataError.corruptFile = error else { return XCTFail("\(error)") }
            }
        }
        // The first row's end points past the bytes (the last end, 1, is the area's size), so the second row would
        // run backwards: reading either throws, never reads out of bounds.
        var past = ByteWriter(capacity: 64)
        past.u8(BlockEncoding.packedEndsTag)
        past.u8(0)
        past.u16(0)
        past.u32(2)
        past.zeros(8)
        past.u8(8)
        past.zeros(7)
        past.u8(200)
        past.u8(1)
        past.zeros(6)
        past.u8(0x41)
        let damaged = past.bytes
        try damaged.withUnsafeBytes { raw in
            let block = try ColumnBlock(raw, ref: NodeRef(rawValue: 9))
            XCTAssertThrowsError(try block.blob(0))
            XCTAssertThrowsError(try block.blob(1), "row 1 spans 200..<1")
        }
    }
}

@testable import StrataStorage
import StrataTestSupport
import XCTest

/// A decoded cluster's variable-size column is written in one pass for the external flags and the end offsets and
/// one for the bytes (`ClusterBuffer.writeVariableRows`), and `ByteWriter` appends zeros and raw bytes by copying:
/// the node must hold every row as it was given, the flags in the right bits across 64-row words.
final class VariableRowsEncodingTests: XCTestCase {
    private let spec = ColumnSpec(
        key: ColumnKey(rawValue: 1), name: "text", type: .value(.string), isNullable: true, elementsNullable: false,
        target: nil, origin: nil, defaultValue: .null)

    /// Row `row`'s value: long (its own node) on and around the 64-row word boundaries, null every seventh, empty
    /// every eleventh, else a short string naming the row.
    private func value(_ row: Int) -> StorageValue {
        if [0, 62, 63, 64, 65, 127, 128, 140].contains(row) {
            return .string(String(repeating: Character(UnicodeScalar(UInt8(97 + row % 26))), count: 1_100 + row))
        }
        if row % 7 == 3 { return .null }
        if row % 11 == 5 { return .string("") }
        return .string("row-\(row)")
    }

    func testEveryRowFlagAndByteSurvivesTheEncoding() throws {
        for rowCount in [1, 63, 64, 65, 128, 141] {
            let space = MemoryNodeSpace()
            let cluster = ClusterBuffer.empty(context: ClusterContext(specs: [spec]))
            for row in 0..<rowCount {
                cluster.keys.append(Int64(row))
                try cluster.columns[0].insert(value(row), at: row)
            }
            cluster.isDirty = true
            let ref = try cluster.encode(in: space)
            let view = try ClusterView(try space.read(ref), ref: ref)
            let block = try XCTUnwrap(try view.block(spec.key))
            XCTAssertEqual(block.count, rowCount)
            for row in 0..<rowCount {
                let expected = value(row)
                XCTAssertEqual(block.isNull(row), expected.isNull, "\(rowCount) rows, row \(row)")
                guard case .string(let text) = expected else { continue }
                let long = text.utf8.count > ClusterBuffer.externalThreshold
                XCTAssertEqual(block.isExternal(row), long, "\(rowCount) rows, row \(row)")
                switch try block.blob(row) {
                case .inline(let bytes):
                    XCTAssertFalse(long, "\(rowCount) rows, row \(row)")
                    XCTAssertEqual(Array(bytes), Array(text.utf8), "\(rowCount) rows, row \(row)")
                case .external(let node, let length):
                    XCTAssertTrue(long, "\(rowCount) rows, row \(row)")
                    XCTAssertEqual(length, text.utf8.count)
                    XCTAssertEqual(Array(try space.read(node).prefix(length)), Array(text.utf8), "row \(row)")
                }
            }
            XCTAssertLessThanOrEqual(try space.read(ref).count, cluster.encodedByteCount, "\(rowCount) rows")
        }
    }

    func testZerosAndRawBytesAppendWhatTheySay() {
        var out = ByteWriter(capacity: 4)
        out.u8(7)
        out.zeros(0)
        out.zeros(5_000)
        let tail: [UInt8] = [1, 2, 3, 250]
        tail.withUnsafeBytes { out.raw($0) }
        out.raw(UnsafeRawBufferPointer(start: nil, count: 0))
        out.zeros(3)
        XCTAssertEqual(out.bytes.count, 1 + 5_000 + 4 + 3)
        XCTAssertEqual(out.bytes[0], 7)
        XCTAssertTrue(out.bytes[1...5_000].allSatisfy { $0 == 0 })
        XCTAssertEqual(Array(out.bytes[5_001...5_004]), tail)
        XCTAssertEqual(Array(out.bytes[5_005...]), [0, 0, 0])
    }
}

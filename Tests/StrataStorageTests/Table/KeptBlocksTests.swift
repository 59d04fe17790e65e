@testable import StrataStorage
import StrataTestSupport
import XCTest

/// `KeptBlocks`, the slots a read transaction's table reads its kept cluster's blocks from in place: a slot holds
/// the block last put there until `clear()`, and nothing outside the slots is ever held.
final class KeptBlocksTests: XCTestCase {
    /// A `.float64` block of `values`, without nulls.
    private func float64Block(_ values: [Double]) -> [UInt8] {
        var out = ByteWriter(capacity: 64)
        out.u8(BlockEncoding.float64.rawValue)
        out.u8(0)
        out.u16(0)
        out.u32(UInt32(values.count))
        for value in values { out.u64(value.bitPattern) }
        return out.bytes
    }

    func testASlotHoldsItsBlockUntilCleared() throws {
        let first = float64Block([1.5, -2.25, 3])
        let second = float64Block([10, 20, 30])
        let blocks = KeptBlocks(count: 3)
        XCTAssertEqual((-1...3).map { blocks.holds($0) }, [false, false, false, false, false])
        try first.withUnsafeBytes { firstRaw in
            try second.withUnsafeBytes { secondRaw in
                blocks.keep(try ColumnBlock(firstRaw, ref: NodeRef(rawValue: 7)), at: 1)
                XCTAssertEqual((-1...3).map { blocks.holds($0) }, [false, false, true, false, false])
                XCTAssertEqual((0..<3).map { Double(bitPattern: blocks[1].word($0)) }, [1.5, -2.25, 3])
                XCTAssertEqual(blocks[1].ref, NodeRef(rawValue: 7))
                // Another cluster: every slot forgotten at once, then filled again with that cluster's blocks.
                blocks.clear()
                XCTAssertEqual((0..<3).map { blocks.holds($0) }, [false, false, false])
                blocks.keep(try ColumnBlock(secondRaw, ref: NodeRef(rawValue: 8)), at: 1)
                blocks.keep(try ColumnBlock(firstRaw, ref: NodeRef(rawValue: 8)), at: 2)
                XCTAssertEqual((0..<3).map { blocks.holds($0) }, [false, true, true])
                XCTAssertEqual((0..<3).map { Double(bitPattern: blocks[1].word($0)) }, [10, 20, 30])
                XCTAssertEqual((0..<3).map { Double(bitPattern: blocks[2].word($0)) }, [1.5, -2.25, 3])
                XCTAssertEqual(blocks[2].ref, NodeRef(rawValue: 8))
            }
        }
    }

    func testNoSlotsHoldNothing() {
        let blocks = KeptBlocks(count: 0)
        XCTAssertFalse(blocks.holds(0))
        blocks.clear()
        XCTAssertFalse(blocks.holds(0))
    }
}

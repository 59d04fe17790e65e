import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The byte-keyed numbering of a batch's terms numbers each distinct term once, in order of first sight, as a
/// dictionary does, through the table's growth; and the varint reader of posting blocks reads what the writers
/// write.
final class TermTableTests: XCTestCase {
    func testTermsAreNumberedOnFirstSightAsADictionaryNumbersThem() {
        var random = SeededGenerator(seed: 0x7E)
        var table = TermTable()
        var expected: [String: Int32] = [:]
        var order: [String] = []
        let alphabet = Array("abcé東🍣_0'") + ["\u{0}"]
        for _ in 0..<20_000 {
            // Short terms repeat often; longer ones are mostly new, so the table grows several times.
            let length = Int.random(in: 0...(Bool.random(using: &random) ? 2 : 9), using: &random)
            let term = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            if expected[term] == nil {
                expected[term] = Int32(order.count)
                order.append(term)
            }
            XCTAssertEqual(table.number(of: term), expected[term], term.debugDescription)
        }
        XCTAssertEqual(table.count, order.count)
        XCTAssertGreaterThan(order.count, 2_000)
        for (number, term) in order.enumerated() {
            XCTAssertEqual(table.term(number), term)
            XCTAssertEqual(Array(table.bytes(of: number)), Array(term.utf8))
        }
    }

    func testVarintReaderReadsWhatTheWritersWrite() {
        var random = SeededGenerator(seed: 0x5A)
        var bytes: [UInt8] = []
        var values: [UInt64] = []
        for _ in 0..<5_000 {
            let bits = Int.random(in: 0...64, using: &random)
            let value = bits == 0 ? 0 : UInt64.random(in: 0...UInt64.max, using: &random) >> (64 - bits)
            values.append(value)
            if value <= UInt64(Int.max), Bool.random(using: &random) {
                FullTextEntry.appendVarint(Int(value), to: &bytes)
            } else {
                PostingBlock.appendKey(Int64(bitPattern: value), to: &bytes)
            }
        }
        bytes.withUnsafeBytes { raw in
            var reader = VarintReader(raw)
            for value in values { XCTAssertEqual(reader.next(), value) }
            XCTAssertTrue(reader.isAtEnd)
            XCTAssertNil(reader.next())
        }
        // A varint cut short, and one that never ends within ten bytes, read as nothing.
        [UInt8]([0x80, 0x81]).withUnsafeBytes { raw in
            var reader = VarintReader(raw)
            XCTAssertNil(reader.next())
        }
        [UInt8](repeating: 0xFF, count: 12).withUnsafeBytes { raw in
            var reader = VarintReader(raw)
            XCTAssertNil(reader.next())
        }
        [UInt8]([0x01, 0x85, 0x02, 0x7F, 0x03]).withUnsafeBytes { raw in
            var reader = VarintReader(raw)
            XCTAssertTrue(reader.skip(3))
            XCTAssertEqual(reader.next(), 3)
            XCTAssertFalse(reader.skip(1))
        }
    }
}

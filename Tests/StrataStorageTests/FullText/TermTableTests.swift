import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The byte-keyed numbering of a batch's terms numbers each distinct term once, in order of first sight, as a
/// dictionary does, through the table's growth, and orders and encodes them as the index does; and the varint
/// reader of posting blocks reads (and skips) what the writers write.
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
            // The encoding made from the table's bytes is the index's (zeros escaped).
            XCTAssertEqual(table.encoded(number), FullTextEntry.termPrefix(term), term.debugDescription)
        }
        // The table's byte order of its terms is the byte order of their encodings.
        let encodedOrder = order.indices.sorted {
            ByteOrder.compare(FullTextEntry.termPrefix(order[$0]), FullTextEntry.termPrefix(order[$1])) < 0
        }
        XCTAssertEqual(table.numbersInByteOrder(), encodedOrder)
    }

    /// Terms whose first 8 bytes are equal (the sort's integer key), or equal once a shorter term is padded with
    /// zeros, are ordered by their whole bytes, as their encodings are.
    func testTermsSharingTheirFirstEightBytesAreOrderedByAllTheirBytes() {
        let terms = [
            "abcdefghz", "abcdefgh", "abcdefg", "abcdefgh\u{0}", "abcdefg\u{0}", "abcdefgh\u{0}\u{0}", "abcdefghi",
            "abcdefgha", "", "\u{0}", "abcdefg\u{0}\u{0}b", "éééé", "ééééa", "東東東", "東東東東",
        ]
        var table = TermTable()
        for term in terms { _ = table.number(of: term) }
        let expected = terms.indices.sorted {
            ByteOrder.compare(FullTextEntry.termPrefix(terms[$0]), FullTextEntry.termPrefix(terms[$1])) < 0
        }
        XCTAssertEqual(table.numbersInByteOrder().map { terms[$0] }, expected.map { terms[$0] })
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

    /// Skipping varints eight bytes at a time lands where reading them one by one does, for runs of one-byte
    /// varints (positions), longer ones mixed in, skips that end inside a word or at its last byte, and skips that
    /// overrun the end.
    func testVarintReaderSkipsAsReadingWould() {
        var random = SeededGenerator(seed: 0x5B)
        for round in 0..<120 {
            var bytes: [UInt8] = []
            var count = 0
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                // Mostly one byte, as positions' gaps are; now and then up to four.
                let wide = round % 3 == 0 && Int.random(in: 0..<4, using: &random) == 0
                let value = Int.random(in: wide ? 128..<(1 << 28) : 0..<128, using: &random)
                FullTextEntry.appendVarint(value, to: &bytes)
                count += 1
            }
            bytes.withUnsafeBytes { raw in
                for first in 0...count {
                    for skipped in 0...(count - first + 1) {
                        var reading = VarintReader(raw), skipping = VarintReader(raw)
                        for _ in 0..<first {
                            _ = reading.next()
                            _ = skipping.next()
                        }
                        let fits = first + skipped <= count
                        for _ in 0..<Swift.min(skipped, count - first) { _ = reading.next() }
                        XCTAssertEqual(skipping.skip(skipped), fits, "round \(round), from \(first), \(skipped)")
                        if fits { XCTAssertEqual(skipping.offset, reading.offset, "round \(round), \(first)") }
                    }
                }
            }
        }
    }
}

import StrataTestSupport
import XCTest

@testable import StrataStorage

/// The one-pass encoding of small sets of strings (`CollectionCodec.encodeStringSet`) against the general one:
/// the same bytes for every order, repeat and awkward string (empty, with zeros, non-ASCII, prefixes of others).
final class SetEncodingTests: XCTestCase {
    /// The general encoding: elements ordered by their index keys, repeats dropped, each written as a list element.
    private func generalEncoding(_ elements: [StorageValue]) -> [UInt8] {
        var unique: [(key: [UInt8], value: StorageValue)] = []
        for element in elements {
            let key = CollectionCodec.orderKey(element)
            if !unique.contains(where: { $0.key == key }) { unique.append((key, element)) }
        }
        unique.sort { $0.key.lexicographicallyPrecedes($1.key) }
        guard !unique.isEmpty else { return [] }
        var body = ByteWriter()
        var offsets: [UInt32] = []
        for item in unique {
            offsets.append(UInt32(body.bytes.count))
            ValueCodec.appendElement(item.value, kind: .string, to: &body)
        }
        var writer = ByteWriter()
        writer.u32(UInt32(unique.count))
        for offset in offsets { writer.u32(offset) }
        writer.append(body.bytes)
        return writer.bytes
    }

    func testSmallStringSetsEncodeAsTheGeneralEncodingDoes() throws {
        var generator = SeededGenerator(seed: 265)
        let pool = ["", "a", "a\u{0}", "a\u{0}b", "a\u{1}", "ab", "b", "nick-12", "nick-1", "nick-120", "é", "e\u{301}",
                    "日本", "🙂", String(repeating: "long-", count: 8)]
        for _ in 0..<2000 {
            let count = generator.below(CollectionCodec.smallStringSet + 1)
            let elements = (0..<count).map { _ in StorageValue.string(pool[generator.below(pool.count)]) }
            let encoded = try XCTUnwrap(CollectionCodec.encodeStringSet(elements))
            XCTAssertEqual(encoded, generalEncoding(elements), "\(elements)")
            XCTAssertEqual(CollectionCodec.encodeSet(elements, kind: .string), encoded)
            let decoded = try encoded.withUnsafeBytes {
                try CollectionCodec.decodeSet($0, kind: .string, ref: .none)
            }
            XCTAssertEqual(decoded, CollectionCodec.normalizedSet(elements))
        }
    }

    func testSetsWithOtherElementsOrManyStringsTakeTheGeneralPath() {
        XCTAssertNil(CollectionCodec.encodeStringSet([.string("a"), .null]))
        XCTAssertNil(CollectionCodec.encodeStringSet([.string("a"), .int(1)]))
        let many = (0..<40).map { StorageValue.string("tag-\(39 - $0)") }
        XCTAssertEqual(CollectionCodec.encodeSet(many, kind: .string), generalEncoding(many))
        XCTAssertEqual(CollectionCodec.encodeStringSet([]), [])
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A 12-byte object identifier as MongoDB and Realm use it: 4 bytes of seconds since 1970 (big-endian), 5 random
/// bytes drawn once per process, and a 3-byte counter. Identifiers generated later compare greater (to the second,
/// then by the counter within a process), so sorting by an `ObjectId` sorts by creation.
///
/// Written as 24 lowercase hexadecimal digits (`stringValue`, `description`, `Codable`).
public struct ObjectId: Hashable, Comparable, Sendable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// Bytes 0-7, big-endian: comparing `(high, low)` compares the 12 bytes in order.
    private let high: UInt64
    /// Bytes 8-11, big-endian.
    private let low: UInt32

    /// The identifier made of `bytes` (exactly 12), or `nil` for another count.
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == 12 else { return nil }
        var high: UInt64 = 0
        var low: UInt32 = 0
        for (offset, byte) in bytes.enumerated() {
            if offset < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt32(byte) }
        }
        self.high = high
        self.low = low
    }

    /// The identifier written as 24 hexadecimal digits (either case).
    /// - Throws: `StrataError.invalidArgument` naming the text when it is not 24 hexadecimal digits.
    public init(string: String) throws {
        guard let parsed = ObjectId(hex: string) else {
            throw StrataError.invalidArgument("'\(string)' is not an ObjectId: write 24 hexadecimal digits")
        }
        self = parsed
    }

    /// The identifier written as 24 hexadecimal digits, or `nil` (`LosslessStringConvertible`).
    public init?(_ description: String) { self.init(hex: description) }

    private init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 24 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        for pair in stride(from: 0, to: 24, by: 2) {
            guard let upper = Self.nibble(digits[pair]), let lower = Self.nibble(digits[pair + 1]) else { return nil }
            bytes.append(upper << 4 | lower)
        }
        self.init(bytes: bytes)
    }

    /// The identifier of 12 zero bytes: what a non-optional `objectId` property without a default holds.
    public static let zero = ObjectId(high: 0, low: 0)

    private init(high: UInt64, low: UInt32) {
        self.high = high
        self.low = low
    }

    /// A new identifier: the current second, this process's random bytes and the next value of its counter.
    public static func generate() -> ObjectId { generate(at: Date()) }

    /// A new identifier whose time part is `date` (to the second, clamped to the 32-bit range).
    public static func generate(at date: Date) -> ObjectId {
        let seconds = UInt32(clamping: Int64(date.timeIntervalSince1970.rounded(.down)))
        let count = counter.withLock { value -> UInt32 in
            value = (value &+ 1) & 0xFF_FFFF
            return value
        }
        var bytes: [UInt8] = withUnsafeBytes(of: seconds.bigEndian) { Array($0) }
        bytes += processRandom
        bytes += [UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
        return ObjectId(bytes: bytes)!
    }

    /// The 12 bytes, in order.
    public var bytes: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(12)
        withUnsafeBytes(of: high.bigEndian) { result += $0 }
        withUnsafeBytes(of: low.bigEndian) { result += $0 }
        return result
    }

    /// The time part: the second the identifier was generated in.
    public var timestamp: Date { Date(timeIntervalSince1970: TimeInterval(high >> 32)) }

    /// The 24 lowercase hexadecimal digits.
    public var stringValue: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 24 lowercase hexadecimal digits.
    public var description: String { stringValue }

    /// Orders by bytes, which is by creation time first.
    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    /// Decodes the hexadecimal string `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = ObjectId(hex: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not 24 hexadecimal digits")
        }
        self = parsed
    }

    /// Encodes the identifier as its 24 hexadecimal digits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Five random bytes chosen once per process.
    private static let processRandom: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
    /// The counter's last value; it starts at a random value, as MongoDB's does.
    private static let counter = Mutex<UInt32>(UInt32.random(in: 0...0xFF_FFFF))
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes of a `Decimal`, exact and ordered: comparing two encodings byte by byte (`memcmp`) compares the
/// values, and no encoding is a prefix of another, so the same bytes serve as the stored value and as its index key.
///
/// A class byte first: `01` negative, `02` zero, `03` positive, `04` NaN. A zero or a NaN is that byte alone. A
/// non-zero value is normalised to `d.ddd × 10^e` (trailing zeros of the digits dropped); then come `e + 0x8000` as
/// 2 big-endian bytes and the digits two per byte, each digit `n` as the nibble `n + 1`, ended by a `0` nibble
/// (a final `00` byte when the count is even). A negative value stores every byte after the class byte
/// complemented, so a larger magnitude sorts first. `10.25` is `03 80 01 21 36 00`.
enum DecimalCoding {
    /// The class bytes.
    private static let negative: UInt8 = 1, zero: UInt8 = 2, positive: UInt8 = 3, notANumber: UInt8 = 4

    /// The encoding of `value`.
    static func encode(_ value: Decimal) -> [UInt8] {
        if value.isNaN { return [notANumber] }
        if value.isZero { return [zero] }
        var digits = Array(value.significand.magnitude.description.utf8)
        var exponent = value.exponent
        while digits.count > 1, digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        let scientific = exponent + digits.count - 1
        var bytes: [UInt8] = [value.sign == .minus ? negative : positive]
        bytes.reserveCapacity(4 + digits.count / 2)
        let biased = UInt16(truncatingIfNeeded: scientific + 0x8000)
        bytes.append(UInt8(biased >> 8))
        bytes.append(UInt8(biased & 0xFF))
        var nibbles = digits.map { $0 - UInt8(ascii: "0") + 1 }
        nibbles.append(0)
        if nibbles.count % 2 == 1 { nibbles.append(0) }
        for pair in stride(from: 0, to: nibbles.count, by: 2) { bytes.append(nibbles[pair] << 4 | nibbles[pair + 1]) }
        if value.sign == .minus {
            for index in 1..<bytes.count { bytes[index] = ~bytes[index] }
        }
        return bytes
    }

    /// The value of an encoding; `nil` for bytes `encode(_:)` never writes.
    static func decode(_ raw: UnsafeRawBufferPointer) -> Decimal? {
        guard let first = raw.first else { return nil }
        switch first {
        case zero: return raw.count == 1 ? Decimal(0) : nil
        case notANumber: return raw.count == 1 ? Decimal.nan : nil
        case negative, positive: break
        default: return nil
        }
        let flip: UInt8 = first == negative ? 0xFF : 0
        guard raw.count >= 4 else { return nil }
        let scientific = Int(UInt16(raw[1] ^ flip) << 8 | UInt16(raw[2] ^ flip)) - 0x8000
        var digits: [UInt8] = []
        var ended = false
        for offset in 3..<raw.count {
            guard !ended else { return nil }
            let byte = raw[offset] ^ flip
            for nibble in [byte >> 4, byte & 0xF] where !ended {
                if nibble == 0 {
                    ended = true
                } else if nibble <= 10 {
                    digits.append(UInt8(ascii: "0") + nibble - 1)
                } else {
                    return nil
                }
            }
        }
        guard ended, !digits.isEmpty, let significand = Decimal(string: String(decoding: digits, as: UTF8.self)) else {
            return nil
        }
        return Decimal(sign: first == negative ? .minus : .plus, exponent: scientific - (digits.count - 1), significand: significand)
    }
}

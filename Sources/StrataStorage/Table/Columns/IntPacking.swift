/// Frame-of-reference bit packing of integers, Realm-style: a leaf stores its smallest value as `base` and each
/// value as `value - base` in the smallest width of 0, 1, 2, 4, 8, 16, 32 or 64 bits that holds the range.
///
/// Width 0 means every value equals `base` (a column of one repeated value costs no data bytes).
enum IntPacking {
    /// The widths a packed leaf may use.
    static let widths: [Int] = [0, 1, 2, 4, 8, 16, 32, 64]

    /// The smallest width holding `range` (`max - min` as an unsigned number).
    ///
    /// Worked out from the range's bit length, without a loop over `widths`: a bulk insert asks it for every
    /// packed column after every row (a cluster checks its size).
    static func width(forRange range: UInt64) -> Int {
        guard range > 1 else { return Int(range) }
        // The range needs `bits` bits (2...64); round up to the next power of two.
        let bits = 64 - range.leadingZeroBitCount
        return 1 << (64 - UInt64(bits - 1).leadingZeroBitCount)
    }

    /// Bytes of packed data for `count` values of `width` bits, rounded up to whole 64-bit words.
    static func dataByteCount(count: Int, width: Int) -> Int { (count * width + 63) / 64 * 8 }

    /// The smallest value and the width for `values` read as signed integers.
    static func frame<C: Collection>(of values: C) -> (base: Int64, width: Int) where C.Element == Int64 {
        guard var low = values.first else { return (0, 0) }
        var high = low
        for value in values {
            if value < low { low = value }
            if value > high { high = value }
        }
        return (low, width(forRange: UInt64(bitPattern: high &- low)))
    }

    /// Appends `values` packed with `base` and `width` to `writer` (whole 64-bit words).
    static func pack<C: Collection>(_ values: C, base: Int64, width: Int, into writer: inout ByteWriter)
    where C.Element == Int64 {
        let byteCount = dataByteCount(count: values.count, width: width)
        guard byteCount > 0 else { return }
        let start = writer.bytes.count
        writer.zeros(byteCount)
        writer.bytes.withUnsafeMutableBytes { raw in
            let data = UnsafeMutableRawBufferPointer(rebasing: raw[start..<start + byteCount])
            var index = 0
            for value in values {
                let delta = UInt64(bitPattern: value &- base)
                switch width {
                case 8: data.storeBytes(of: UInt8(truncatingIfNeeded: delta), toByteOffset: index, as: UInt8.self)
                case 16:
                    data.storeBytes(of: UInt16(truncatingIfNeeded: delta).littleEndian, toByteOffset: index * 2, as: UInt16.self)
                case 32:
                    data.storeBytes(of: UInt32(truncatingIfNeeded: delta).littleEndian, toByteOffset: index * 4, as: UInt32.self)
                case 64: data.storeBytes(of: delta.littleEndian, toByteOffset: index * 8, as: UInt64.self)
                default:
                    let bit = index * width
                    let byte = bit >> 3
                    data[byte] |= UInt8(truncatingIfNeeded: delta << UInt64(bit & 7))
                }
                index += 1
            }
        }
    }

    /// The raw (unsigned, before adding `base`) value at `index` of packed `data`. The caller has checked
    /// that `data` holds `index + 1` values.
    @inline(__always)
    static func raw(_ data: UnsafeRawPointer, width: Int, at index: Int) -> UInt64 {
        switch width {
        case 0: return 0
        case 8: return UInt64(data.load(fromByteOffset: index, as: UInt8.self))
        case 16: return UInt64(UInt16(littleEndian: data.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)))
        case 32: return UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
        case 64: return UInt64(littleEndian: data.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
        default:
            let bit = index * width
            let byte = data.load(fromByteOffset: bit >> 3, as: UInt8.self)
            return UInt64((byte >> UInt8(bit & 7)) & UInt8((1 << width) - 1))
        }
    }
}

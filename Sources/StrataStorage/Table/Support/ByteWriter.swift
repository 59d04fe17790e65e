/// Appends little-endian values to a byte array that becomes a node's payload.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    // Byte by byte: appending a raw buffer goes through the generic `append(contentsOf:)`, which a profile of
    // one-value commits found taking 8% of their CPU.
    mutating func u16(_ value: UInt16) { little(UInt64(value), bytes: 2) }
    mutating func u32(_ value: UInt32) { little(UInt64(value), bytes: 4) }
    mutating func u64(_ value: UInt64) { little(value, bytes: 8) }

    @inline(__always)
    private mutating func little(_ value: UInt64, bytes count: Int) {
        for shift in stride(from: 0, to: count * 8, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    /// Appends `values` as little-endian words, growing the array once: `u64`'s eight appends cost about 90
    /// instructions a word, and a changed 512-row double column made them a tenth of a one-value commit.
    mutating func u64s(_ values: [UInt64]) {
        let start = bytes.count
        zeros(values.count * 8)
        bytes.withUnsafeMutableBytes { raw in
            for (index, value) in values.enumerated() {
                raw.storeBytes(of: value.littleEndian, toByteOffset: start + index * 8, as: UInt64.self)
            }
        }
    }
    /// Appends raw bytes with one copy (a column block kept as stored, a value's bytes): a typed buffer appends
    /// with one `memcpy`, where zeroing the room first and copying over it wrote every byte twice.
    mutating func raw(_ source: UnsafeRawBufferPointer) {
        guard !source.isEmpty else { return }
        bytes.append(contentsOf: source.assumingMemoryBound(to: UInt8.self))
    }
    mutating func append<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }

    /// Appends `count` zero bytes, copied from ``zeroPage`` a page at a time: a contiguous slice appends with one
    /// `memcpy`, where `repeatElement` went through the generic append byte by byte (about 1 % of a bulk insert's
    /// CPU, writing its clusters out).
    mutating func zeros(_ count: Int) {
        var left = count
        while left > 0 {
            let chunk = min(left, ByteWriter.zeroPage.count)
            bytes.append(contentsOf: ByteWriter.zeroPage[..<chunk])
            left -= chunk
        }
    }

    /// The zeros ``zeros(_:)`` copies.
    private static let zeroPage = [UInt8](repeating: 0, count: 4096)

    /// Pads with zeros to a multiple of `alignment` bytes.
    mutating func align(_ alignment: Int) {
        let extra = bytes.count % alignment
        if extra != 0 { zeros(alignment - extra) }
    }

    /// Appends `text` as its UTF-8 length (`u32`) and bytes, copied from the string's own storage.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            raw(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Overwrites four bytes at `offset` (for sizes known only after what follows is written).
    mutating func patchU32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }

    /// Writes the bytes to a freshly allocated node.
    func store(in writer: NodeWriter) throws -> NodeRef {
        let (ref, target) = try writer.allocate(byteCount: bytes.count)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let destination = target.baseAddress {
                destination.copyMemory(from: base, byteCount: min(source.count, target.count))
            }
        }
        return ref
    }
}

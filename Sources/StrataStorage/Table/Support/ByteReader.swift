/// A bounds-checked cursor over a node's payload.
///
/// Every length and offset read from a node goes through here (or is checked against the buffer before a
/// tight loop), so a damaged node gives an error, never an out-of-bounds read.
struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    let ref: NodeRef
    let what: String
    var offset: Int = 0

    init(_ buffer: UnsafeRawBufferPointer, ref: NodeRef, what: String) {
        self.buffer = buffer
        self.ref = ref
        self.what = what
    }

    var remaining: Int { buffer.count - offset }

    func damage(_ detail: String) -> StrataError { NodeDamage.error(ref, what, detail) }

    mutating func need(_ count: Int) throws {
        guard count >= 0, count <= remaining else {
            throw damage("needs \(count) bytes at offset \(offset) but the node has \(buffer.count)")
        }
    }

    mutating func skip(_ count: Int) throws {
        try need(count)
        offset += count
    }

    mutating func u8() throws -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func u16() throws -> UInt16 {
        try need(2)
        defer { offset += 2 }
        return UInt16(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    mutating func u32() throws -> UInt32 {
        try need(4)
        defer { offset += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    mutating func u64() throws -> UInt64 {
        try need(8)
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }

    /// A count that must fit in what is left of the node when each item takes at least `minimumItemSize` bytes.
    mutating func count(minimumItemSize: Int, label: String) throws -> Int {
        let value = Int(try u32())
        guard value * max(minimumItemSize, 0) <= remaining else {
            throw damage("\(label) \(value) does not fit in the \(remaining) bytes left")
        }
        return value
    }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        try need(count)
        defer { offset += count }
        return Array(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count]))
    }

    mutating func string() throws -> String {
        let length = Int(try u32())
        let raw = try bytes(length)
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw damage("a name at offset \(offset - length) is not valid UTF-8")
        }
        return text
    }

    mutating func slice(_ count: Int) throws -> UnsafeRawBufferPointer {
        try need(count)
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }
}

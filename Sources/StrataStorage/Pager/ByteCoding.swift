/// Little-endian fixed-width fields at byte offsets, the only way the pager reads or writes its structures.
extension UnsafeRawPointer {
    @inline(__always)
    func u64(at offset: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }

    @inline(__always)
    func u32(at offset: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }

    @inline(__always)
    func u8(at offset: Int) -> UInt8 { load(fromByteOffset: offset, as: UInt8.self) }
}

extension UnsafeMutableRawPointer {
    @inline(__always)
    func setU64(_ value: UInt64, at offset: Int) { storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self) }

    @inline(__always)
    func setU32(_ value: UInt32, at offset: Int) { storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self) }

    @inline(__always)
    func setU8(_ value: UInt8, at offset: Int) { storeBytes(of: value, toByteOffset: offset, as: UInt8.self) }
}

/// Turns a stored string's bytes into a `String`, the one place every reader of string columns decodes them.
public enum StoredText {
    /// The string `raw` holds, or `nil` when its bytes are not valid UTF-8 (a damaged node: the caller names where).
    ///
    /// ASCII is valid UTF-8 as it is, so it skips the validating initializer, which costs more than most values.
    @inline(__always)
    public static func decode(_ raw: UnsafeRawBufferPointer) -> String? {
        if isASCII(raw) { return String(decoding: raw, as: UTF8.self) }
        return String(validating: raw, as: UTF8.self)
    }

    /// Whether every byte of `raw` is below 0x80, tested eight bytes at a time (a byte at a time was a tenth of
    /// reading a short string property).
    @inline(__always)
    static func isASCII(_ raw: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        var high: UInt64 = 0
        while offset + 8 <= raw.count {
            high |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < raw.count {
            high |= UInt64(raw[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}

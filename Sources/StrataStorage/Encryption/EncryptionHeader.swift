/// The block of page 0 that says whether a file is encrypted and lets open tell the right key from a wrong one.
///
/// ```
/// 64   scheme     UInt32   0 = not encrypted (the block is all zeros), 1 = AES-256-CTR + HMAC-SHA256 per node
/// 68   reserved   UInt32   0
/// 72   salt       16 bytes random, chosen when the file was created
/// 88   key check  32 bytes HMAC-SHA256 under the whole key of "Strata encryption key check" + salt
/// 120  checksum   UInt64   xxHash64 of bytes 64 ..< 120 (seeded), so damage is not mistaken for a wrong key
/// ```
///
/// Written once, with the rest of page 0, when the file is created. Files written before encryption existed
/// have zeros here, which reads as "not encrypted".
struct EncryptionHeader: Equatable, Sendable {
    static let offset = 64
    static let byteCount = 64
    static let scheme: UInt32 = 1
    private static let checksumSeed: UInt64 = 0x5354_5241_4352_5950

    var salt: [UInt8]
    var keyCheck: [UInt8]

    /// A block for a new file encrypted with `cipher`'s key.
    init(cipher: NodeCipher) {
        salt = NodeCipher.randomBytes(16)
        keyCheck = cipher.keyCheck(salt: salt)
    }

    private init(salt: [UInt8], keyCheck: [UInt8]) {
        self.salt = salt
        self.keyCheck = keyCheck
    }

    /// Writes the block into page 0 at `base` (the start of the page).
    func encode(into base: UnsafeMutableRawPointer) {
        let block = base + Self.offset
        block.setU32(Self.scheme, at: 0)
        block.setU32(0, at: 4)
        salt.withUnsafeBytes { (block + 8).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        keyCheck.withUnsafeBytes { (block + 24).copyMemory(from: $0.baseAddress!, byteCount: 32) }
        block.setU64(Checksum.hash(UnsafeRawPointer(block), count: 56, seed: Self.checksumSeed), at: 56)
    }

    /// The block of page 0 at `base`: nil for a file that is not encrypted.
    ///
    /// - Throws: `corruptFile` when the block is neither all zeros nor a whole block of a known scheme;
    ///   `unsupportedFormat` for a scheme newer than this code.
    static func decode(from base: UnsafeRawPointer, path: String) throws -> EncryptionHeader? {
        let block = base + offset
        let bytes = UnsafeRawBufferPointer(start: block, count: byteCount)
        if bytes.allSatisfy({ $0 == 0 }) { return nil }
        guard Checksum.hash(block, count: 56, seed: checksumSeed) == block.u64(at: 56) else {
            throw StrataError.corruptFile(
                path: path, location: "file header (page 0, bytes 64-127)",
                detail: "the encryption block's checksum does not match; restore the file from a backup")
        }
        let scheme = block.u32(at: 0)
        guard scheme == Self.scheme else {
            throw StrataError.unsupportedFormat(path: path, version: Int(FileHeader.formatVersion) + 1, supported: Int(FileHeader.formatVersion))
        }
        return EncryptionHeader(salt: Array(bytes[8..<24]), keyCheck: Array(bytes[24..<56]))
    }

    /// Checks that the key a store is opened with fits the file.
    ///
    /// - Throws: `wrongEncryptionKey` when the file is encrypted and no key or another key is given, or when a key
    ///   is given for a file that is not encrypted.
    static func check(_ header: EncryptionHeader?, cipher: NodeCipher?, path: String) throws {
        guard let header, let cipher else {
            if header != nil || cipher != nil {
                throw keyMismatch(fileIsEncrypted: header != nil, keyGiven: cipher != nil, path: path)
            }
            return
        }
        guard cipher.keyCheck(salt: header.salt) == header.keyCheck else {
            throw keyMismatch(fileIsEncrypted: true, keyGiven: true, path: path)
        }
    }

    /// The error for a key that does not fit a file: given for a clear file, missing for an encrypted one, or
    /// another than the file's (also what a second open in the same process with another key gets).
    static func keyMismatch(fileIsEncrypted: Bool, keyGiven: Bool, path: String) -> StrataError {
        let detail = switch (fileIsEncrypted, keyGiven) {
        case (false, _): "the file is not encrypted; open it without an encryption key"
        case (true, false): "the file is encrypted; open it with the 64-byte key it was created with"
        case (true, true): "the key given is not the key the file was encrypted with"
        }
        return .wrongEncryptionKey(path: path, detail: detail)
    }
}

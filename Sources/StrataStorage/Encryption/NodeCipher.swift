import Crypto
import CryptoExtras

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encrypts and authenticates nodes of an encrypted store: AES-256 in counter mode for the payload, then
/// HMAC-SHA256 over what was encrypted (encrypt-then-MAC), with a 64-byte key (the first 32 bytes for AES, the
/// last 32 for the HMAC, as Realm splits its key).
///
/// A node is the unit the store writes and checksums, so it is also the unit it encrypts: a node spanning four
/// pages is one ciphertext and one code, not four. On disk an encrypted node is
///
/// ```
/// 0        header      32 bytes, in clear (checksum, magic, kind, length, version, page: see NodeHeader)
/// 32       ciphertext  `length` bytes: the payload, AES-256-CTR
/// 32+len   iv          16 bytes: the counter block the payload's keystream starts at (random per write)
/// 48+len   mac         32 bytes: HMAC-SHA256(page number, header bytes 8..<32, iv, ciphertext)
/// ```
///
/// The header's checksum then covers bytes 8 ..< 80 + length, exactly as for a clear node it covers the payload,
/// so recovery finds torn writes without the key. The code covers the page number, so a node copied to another
/// page does not authenticate there, and the header (its version, and in format 3 its page again), so the header
/// cannot be made to claim another version. An older copy of the same page, put back whole, does authenticate: the
/// version tag of the reference read through catches it (`PagedFile.bindingProblem`).
final class NodeCipher: Sendable {
    /// Bytes an encrypted node carries after its payload (iv and code).
    static let sealByteCount = 48
    /// Bytes of key `StoreOptions.encryptionKey` takes.
    static let keyByteCount = 64

    private let aesKey: SymmetricKey
    private let macKey: SymmetricKey
    private let wholeKey: SymmetricKey

    /// - Throws: `invalidArgument` unless `key` is 64 bytes.
    init(key: [UInt8]) throws {
        guard key.count == Self.keyByteCount else {
            throw StrataError.invalidArgument(
                "an encryption key is \(Self.keyByteCount) bytes (AES-256 then HMAC-SHA256); \(key.count) were given")
        }
        aesKey = SymmetricKey(data: key[0..<32])
        macKey = SymmetricKey(data: key[32..<64])
        wholeKey = SymmetricKey(data: key)
    }

    /// Writes the encrypted image of a node to `target`: its header as it is at `source` (fields set, checksum
    /// not yet), the ciphertext of its `length` payload bytes, a fresh iv and the code. Returns the checksum it
    /// stored in the image's header. `target` must hold `NodeHeader.byteCount + length + sealByteCount` bytes.
    func seal(node source: UnsafeRawPointer, length: Int, page: UInt64, into target: UnsafeMutableRawPointer) -> UInt64 {
        target.copyMemory(from: source, byteCount: NodeHeader.byteCount)
        let iv = Self.randomBytes(16)
        let ivPointer = target + NodeHeader.byteCount + length
        iv.withUnsafeBytes { ivPointer.copyMemory(from: $0.baseAddress!, byteCount: 16) }
        let plaintext = UnsafeRawBufferPointer(start: source + NodeHeader.byteCount, count: length)
        let ciphertext = Self.counterMode(plaintext, key: aesKey, iv: iv)
        ciphertext.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { (target + NodeHeader.byteCount).copyMemory(from: base, byteCount: length) }
        }
        let code = authenticationCode(of: UnsafeRawPointer(target), length: length, page: page)
        code.withUnsafeBytes { (ivPointer + 16).copyMemory(from: $0.baseAddress!, byteCount: 32) }
        return NodeHeader.seal(target, length: length + Self.sealByteCount)
    }

    /// Checks the code of the encrypted node at `source` (on page `page`) and decrypts its payload into `target`
    /// (`length` bytes).
    ///
    /// - Returns: false when the code does not match: the node was changed by someone without the key, or is
    ///   damaged in a way its checksum missed.
    func open(node source: UnsafeRawPointer, length: Int, page: UInt64, into target: UnsafeMutableRawPointer) -> Bool {
        let stored = UnsafeRawBufferPointer(start: source + NodeHeader.byteCount + length + 16, count: 32)
        guard authenticationCode(of: source, length: length, page: page) == stored else { return false }
        var iv = [UInt8](repeating: 0, count: 16)
        iv.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: source + NodeHeader.byteCount + length, count: 16)) }
        let plaintext = Self.counterMode(
            UnsafeRawBufferPointer(start: source + NodeHeader.byteCount, count: length), key: aesKey, iv: iv)
        plaintext.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { target.copyMemory(from: base, byteCount: length) }
        }
        return true
    }

    /// The value page 0 keeps to tell the right key from a wrong one at open: an HMAC-SHA256 of a fixed text and
    /// the file's salt under the whole 64-byte key, so a key wrong in either half is refused.
    func keyCheck(salt: [UInt8]) -> [UInt8] {
        var code = HMAC<SHA256>(key: wholeKey)
        code.update(data: Array("Strata encryption key check".utf8))
        code.update(data: salt)
        return Array(code.finalize())
    }

    // MARK: Internals

    private func authenticationCode(of node: UnsafeRawPointer, length: Int, page: UInt64) -> HashedAuthenticationCode<SHA256> {
        var code = HMAC<SHA256>(key: macKey)
        withUnsafeBytes(of: page.littleEndian) { code.update(data: $0) }
        code.update(data: UnsafeRawBufferPointer(start: node + 8, count: NodeHeader.byteCount - 8))
        code.update(data: UnsafeRawBufferPointer(start: node + NodeHeader.byteCount + length, count: 16))
        code.update(data: UnsafeRawBufferPointer(start: node + NodeHeader.byteCount, count: length))
        return code.finalize()
    }

    private static func counterMode(_ bytes: UnsafeRawBufferPointer, key: SymmetricKey, iv: [UInt8]) -> Data {
        guard bytes.count > 0 else { return Data() }
        // Neither call can fail here: the key is 32 bytes and the iv 16 (both checked by construction).
        guard let nonce = try? AES._CTR.Nonce(nonceBytes: iv), let result = try? AES._CTR.encrypt(bytes, using: key, nonce: nonce)
        else { preconditionFailure("AES-256-CTR refused a 32-byte key and a 16-byte counter block") }
        return result
    }

    /// `count` random bytes from the system's generator: ivs and salts. An iv is random rather than counted
    /// because a version number repeats after a rolled-back transaction, and two nodes encrypted from the same
    /// counter block would give each other away.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            // Eight bytes per draw: each draw is a system call.
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }
}

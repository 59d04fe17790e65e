import Foundation

/// Strata through the public API on an encrypted file (`Configuration.encryptionKey`): what encryption costs.
final class StrataEncryptedEngine: StrataObjectEngine {
    override class var name: String { "Strata encrypted" }
    override class var encryptionKey: Data? { Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 17) }) }
}

import Foundation
import JWTKit

/// Verifies the bearer token of each request: an HS256 JWT signed with the server's key, not expired, naming a
/// user in `sub`.
public struct TokenVerifier: Sendable {
    private let keys: JWTKeyCollection

    /// Creates a verifier for HS256 tokens signed with `key`.
    public init(hmacKey key: [UInt8]) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
        self.keys = keys
    }

    /// Reads the key from `path`: the file's bytes, without a trailing newline.
    /// - Throws: `RulesError` when the file cannot be read or is shorter than 32 bytes.
    public static func key(fromFile path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RulesError("cannot read the JWT key file \(path)")
        }
        var bytes = [UInt8](data)
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        guard bytes.count >= 32 else {
            throw RulesError("the JWT key in \(path) has \(bytes.count) bytes; HS256 needs at least 32")
        }
        return bytes
    }

    /// The user id of an `Authorization` header's value.
    /// - Throws: `SyncError.unauthorized` saying why the token is refused.
    public func user(authorization: String?) async throws -> String {
        guard let authorization, !authorization.isEmpty else {
            throw SyncError(.unauthorized, "missing token: send 'Authorization: Bearer <JWT>'")
        }
        let prefix = "Bearer "
        guard authorization.hasPrefix(prefix) else {
            throw SyncError(.unauthorized, "the Authorization header must be 'Bearer <JWT>'")
        }
        let token = String(authorization.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
        do {
            let claims = try await keys.verify(token, as: SyncClaims.self)
            return claims.sub.value
        } catch let error as JWTError {
            switch error.errorType {
            case .signatureVerificationFailed:
                throw SyncError(.unauthorized, "token refused: its signature does not match the server's key")
            case .claimVerificationFailure where error.failedClaim is ExpirationClaim:
                throw SyncError(.unauthorized, "token refused: it has expired")
            case .claimVerificationFailure:
                throw SyncError(.unauthorized, "token refused: \(error.reason ?? "a claim does not verify")")
            case .malformedToken:
                throw SyncError(.unauthorized, "token refused: it is not a well-formed JWT")
            default:
                throw SyncError(.unauthorized, "token refused: \(error.reason ?? "\(error.errorType)")")
            }
        } catch {
            throw SyncError(.unauthorized, "token refused: it is not an HS256 JWT with 'sub' and 'exp' (\(error))")
        }
    }
}

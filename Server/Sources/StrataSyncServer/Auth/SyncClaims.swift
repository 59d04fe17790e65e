import JWTKit

/// The claims the server reads from a token: `sub` (the user id the rules compare with) and `exp`, both required.
public struct SyncClaims: JWTPayload, Equatable {
    /// The user.
    public var sub: SubjectClaim
    /// When the token stops being accepted.
    public var exp: ExpirationClaim

    /// Creates claims (tests and token-issuing tools sign these).
    public init(sub: String, exp: ExpirationClaim) {
        self.sub = SubjectClaim(value: sub)
        self.exp = exp
    }

    /// Refuses an expired token or one with an empty subject.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        guard !sub.value.isEmpty else {
            throw JWTError.claimVerificationFailure(failedClaim: sub, reason: "sub is empty")
        }
    }
}

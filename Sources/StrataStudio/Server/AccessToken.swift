/// The secret that every request to the studio must carry: 32 random bytes from the system's cryptographic
/// generator, written as 64 hexadecimal digits.
///
/// The address the studio prints holds it (`?token=…`); the first page load sets it as a cookie
/// (`HttpOnly; SameSite=Strict`, so a page of another site in the same browser cannot send it), and the page's
/// own requests also send it in the `X-Strata-Studio-Token` header. Another user of the machine can reach
/// 127.0.0.1 but cannot read the token, which only the terminal that started the studio shows.
public struct AccessToken: Sendable, Equatable {
    /// The name of the query parameter, the cookie and (with `X-Strata-Studio-`) the header.
    public static let parameter = "token"
    /// The cookie's name.
    public static let cookie = "strata_studio_token"
    /// The header's name.
    public static let header = "X-Strata-Studio-Token"

    /// The 64 hexadecimal digits.
    public let value: String

    /// A new random token.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        value = bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }

    /// A token with a known value (tests).
    public init(value: String) {
        self.value = value
    }

    /// Whether `candidate` is the token, compared in time independent of where it differs.
    public func matches(_ candidate: Substring?) -> Bool {
        guard let candidate else { return false }
        let given = Array(candidate.utf8)
        let expected = Array(value.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }
}

import Foundation

/// Swift source spellings of values: string, number, UUID and date literals.
enum SwiftLiteral {
    /// `text` as a Swift string literal, with quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `number` as a Swift floating-point expression (`1.5`, `-0.0`, `.infinity`, `.nan`).
    static func floatingPoint(_ number: Double) -> String {
        if number.isNaN { return ".nan" }
        if number.isInfinite { return number < 0 ? "-.infinity" : ".infinity" }
        return "\(number)"
    }

    /// A `[String]` array literal.
    static func stringArray(_ texts: [String]) -> String {
        "[" + texts.map(string).joined(separator: ", ") + "]"
    }

    /// A `UUID(uuid:)` expression for the UUID `text` spells, or `nil` if it is not a UUID.
    ///
    /// Built from the bytes rather than `UUID(uuidString:)!`, so the generated code has no force-unwrap.
    static func uuid(_ text: String) -> String? {
        guard let uuid = UUID(uuidString: text) else { return nil }
        return uuidBytes(uuid)
    }

    /// The all-zero UUID, the zero value of a non-optional `uuid` property without a default.
    static let zeroUUID = "UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))"

    /// A `Date(timeIntervalSince1970:)` expression for the ISO 8601 date `text` spells, or `nil` if it is not one.
    static func date(_ text: String) -> String? {
        guard let date = parseISO8601(text) else { return nil }
        return "Date(timeIntervalSince1970: \(floatingPoint(date.timeIntervalSince1970)))"
    }

    private static func uuidBytes(_ uuid: UUID) -> String {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let hex = bytes.map { byte in "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
        return "UUID(uuid: (" + hex.joined(separator: ", ") + "))"
    }

    /// Accepts a full timestamp (`2024-05-01T10:00:00Z`, with or without fractional seconds) or a plain date
    /// (`2024-05-01`, taken as midnight UTC).
    private static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        return try? Date(text + "T00:00:00Z", strategy: .iso8601)
    }
}

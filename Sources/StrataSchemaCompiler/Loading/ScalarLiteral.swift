import StrataSchema
import Yams

/// Reads YAML scalars into values with the schema's rules, never trapping on what the file contains.
///
/// Yams' own numeric constructors multiply sexagesimal numbers (`1:30`) without overflow checks, so a crafted
/// file could crash the compiler through them; these parsers use only checked arithmetic.
enum ScalarLiteral {
    /// A `default:` value, read by the YAML tag the scalar resolves to; validation then checks it against the
    /// property's type. Returns a message when the node is not a single value.
    static func defaultValue(_ node: Node) -> Result<DefaultValue, TypeSpelling.Problem> {
        guard case .scalar(let scalar) = node else {
            return .failure(.init(message: "a default is a single value, not a list or mapping"))
        }
        guard scalar.style == .plain || scalar.style == .any else { return .success(.string(scalar.string)) }
        let text = scalar.string
        if text == "auto" { return .success(.auto) }
        switch Resolver.default.resolveTag(of: node) {
        case .null: return .success(.null)
        case .bool: return .success(.bool(["true", "yes", "on"].contains(text.lowercased())))
        case .int:
            guard let value = integer(text) else {
                return .failure(.init(message:
                    "'\(text)' is not an integer that fits in 64 bits: write a plain number such as 42"))
            }
            return .success(.integer(value))
        case .float:
            guard let value = double(text) else {
                return .failure(.init(message: "'\(text)' is not a number: write it like 1.5 or 0"))
            }
            return .success(.double(value))
        default: return .success(.string(text))
        }
    }

    /// A YAML 1.1 integer (`42`, `-7`, `1_000`, `0x1F`, `0o17`, `0b101`), or `nil` when it does not fit in
    /// `Int64` or uses the sexagesimal form (`1:30`).
    static func integer(_ text: String) -> Int64? {
        var digits = Substring(text.filter { $0 != "_" })
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            radix = base
            digits = digits.dropFirst(2)
            break
        }
        if radix == 10, digits.count > 1, digits.hasPrefix("0") {
            radix = 8
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else { return nil }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// A YAML floating-point number (`1.5`, `-2e3`, `.inf`, `.nan`), or `nil`.
    static func double(_ text: String) -> Double? {
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let cleaned = text.filter { $0 != "_" }
            if cleaned.contains(":") { return nil }
            if let integer = integer(cleaned) { return Double(integer) }
            return Double(cleaned)
        }
    }

    /// `true`/`false` (and YAML 1.1's `yes`/`no`/`on`/`off`) when the scalar is a plain boolean.
    static func bool(_ node: Node) -> Bool? {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
            Resolver.default.resolveTag(of: node) == .bool
        else { return nil }
        return ["true", "yes", "on"].contains(scalar.string.lowercased())
    }
}

/// A property's `default:` as written in the schema, checked against the property's type by validation.
public enum DefaultValue: Hashable, Sendable {
    /// `true` / `false`
    case bool(Bool)
    /// An integer literal.
    case integer(Int64)
    /// A floating-point literal.
    case double(Double)
    /// A string literal; also an enum case's name, and a date (ISO 8601) or UUID written as text.
    case string(String)
    /// `auto`: a random UUID, the next integer primary key, or the current date.
    case auto
    /// `null` / `~`: only for optional properties.
    case null
}

/// A parsed JSON document, as the JSON import reads it: numbers keep their text (so a decimal or a 64-bit integer
/// converts exactly) and objects keep their keys in the order written.
package enum JSONValue: Sendable, Equatable {
    /// `null`
    case null
    /// `true` / `false`
    case bool(Bool)
    /// A number as written (`12`, `-0.5`, `1e3`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: its members in the order written.
    case object([(key: String, value: JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// What a message calls the value: `a string`, `12`, `an array`, `null`.
    package var found: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let text): return text
        case .string(let text): return "the string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The member `key` of an object, if it has one.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// Spelling schema names as Swift identifiers.
enum SwiftIdentifier {
    /// Words that must be written in backticks to be used as a declaration's name or an argument label.
    static let keywords: Set<String> = [
        "Any", "Protocol", "Self", "Type", "_", "as", "associatedtype", "await", "break", "case", "catch", "class",
        "continue", "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false",
        "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil",
        "open", "operator", "precedencegroup", "private", "protocol", "public", "repeat", "rethrows", "return",
        "self", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias",
        "var", "where", "while",
    ]

    /// `name`, in backticks if it is a Swift keyword (docs/SCHEMA.md: a keyword is escaped, not refused).
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label at a call site: only `inout`, `var` and `let` need backticks there (Swift
    /// warns about any other escaped keyword).
    static func label(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// `name` with its first letter in upper case: `status` → `Status`, for nested enum types and method names.
    static func upperCamel(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }
}

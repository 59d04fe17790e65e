import Foundation

/// The brute-force side of the conformance suite: string semantics written from the predicate language's
/// definition, independently of the engine's `StringFolding`, `StringMatcher` and `LikePattern`.
enum Oracle {
    /// Case folding as upper-then-lower casing (`ß` → `ss`, `ς` → `σ`), diacritics removed by decomposing and
    /// dropping combining marks.
    static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var result = text
        if diacriticInsensitive {
            let scalars = result.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                $0.properties.generalCategory != .nonspacingMark
            }
            result = String(String.UnicodeScalarView(scalars)).precomposedStringWithCanonicalMapping
        }
        if caseInsensitive { result = result.uppercased().lowercased() }
        return result
    }

    /// A string comparison as the language defines it: UTF-8 bytes after folding (which orders strings by their
    /// Unicode scalars); `LIKE` on characters. An empty operand of `BEGINSWITH`, `ENDSWITH` or `CONTAINS` matches
    /// nothing, as in Realm and `NSPredicate`; a nil value matches only `!=`.
    static func string(_ text: String?, _ op: String, _ operand: String, options: String) -> Bool {
        guard let text else { return op == "!=" }
        let c = options.contains("c"), d = options.contains("d")
        let left = fold(text, caseInsensitive: c, diacriticInsensitive: d)
        let right = fold(operand, caseInsensitive: c, diacriticInsensitive: d)
        let a = Array(left.utf8), b = Array(right.utf8)
        switch op {
        case "==": return a == b
        case "!=": return a != b
        case "<": return Array(left.unicodeScalars.map(\.value)).lexicographicallyPrecedes(right.unicodeScalars.map(\.value))
        case "<=": return !string(text, ">", operand, options: options)
        case ">": return Array(right.unicodeScalars.map(\.value)).lexicographicallyPrecedes(left.unicodeScalars.map(\.value))
        case ">=": return !string(text, "<", operand, options: options)
        case "BEGINSWITH": return !b.isEmpty && a.starts(with: b)
        case "ENDSWITH": return !b.isEmpty && a.count >= b.count && Array(a.suffix(b.count)) == b
        case "CONTAINS":
            if b.isEmpty { return false }
            guard a.count >= b.count else { return false }
            return (0...(a.count - b.count)).contains { Array(a[$0..<($0 + b.count)]) == b }
        case "LIKE": return like(Array(left), Array(right))
        default: fatalError("unknown string operator \(op)")
        }
    }

    /// `*` any run, `?` one character; plain recursion (the data is small).
    static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        let rest = Array(pattern.dropFirst())
        if head == "*" {
            return (0...text.count).contains { like(Array(text.dropFirst($0)), rest) }
        }
        guard let first = text.first, head == "?" || head == first else { return false }
        return like(Array(text.dropFirst()), rest)
    }

    /// An ordering comparison of optional numbers (nil never matches; `!=` matches nil).
    static func compare(_ value: Double?, _ op: String, _ operand: Double?) -> Bool {
        guard let value, let operand else {
            switch op {
            case "==": return value == nil && operand == nil
            case "!=": return !(value == nil && operand == nil)
            default: return false
            }
        }
        switch op {
        case "==": return value == operand
        case "!=": return value != operand
        case "<": return value < operand
        case "<=": return value <= operand
        case ">": return value > operand
        case ">=": return value >= operand
        default: fatalError("unknown operator \(op)")
        }
    }
}

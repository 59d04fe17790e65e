/// The key-path components that read a map (docs/QUERIES.md, "Sets and maps"): `scores['math']` (also written
/// `scores.math`), `scores.@allKeys` and `scores.@allValues`.
///
/// A parsed key path keeps its components as strings; a property name is an identifier, so these spellings, which
/// start with `[` or `@`, never collide with one.
enum MapPathComponent {
    /// `map.@allKeys`: the map's keys.
    static let allKeys = "@allKeys"
    /// `map.@allValues`: the map's values (what the map itself stands for in a comparison).
    static let allValues = "@allValues"

    /// The component of `map['key']`.
    static func subscripted(_ key: String) -> String { "['" + key + "']" }

    /// The key a `map['key']` component reads, or `nil` for any other component.
    static func key(of component: String) -> String? {
        guard component.hasPrefix("['"), component.hasSuffix("']"), component.count >= 4 else { return nil }
        return String(component.dropFirst(2).dropLast(2))
    }

    /// Components as written: joined with dots, but a subscript follows its map directly (`scores['math']`).
    static func text(_ components: [String]) -> String {
        var text = ""
        for component in components {
            if !text.isEmpty, !component.hasPrefix("[") { text += "." }
            text += component
        }
        return text
    }
}

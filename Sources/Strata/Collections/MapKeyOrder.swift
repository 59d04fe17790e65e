/// The order of a map's keys: by their UTF-8 bytes, as the store keeps them (docs/FILE-FORMAT.md, "Sets and
/// maps"), so an unmanaged map iterates in the order it will have once managed.
enum MapKeyOrder {
    /// Whether `left` sorts before `right`.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    /// Why `key` cannot be a map key, or `nil` when it can: as in Realm, a key may not contain `.` or start with
    /// `$`, which queries read as a key path (`scores.math`) or an operator.
    static func problem(with key: String) -> String? {
        if key.contains(".") { return "map key '\(key)' contains '.', which queries read as a key path" }
        if key.hasPrefix("$") { return "map key '\(key)' starts with '$', which queries reserve" }
        return nil
    }
}

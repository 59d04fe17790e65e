/// An element a set column scan looks for, prepared once per query in the form sets store it, so that each
/// object's encoded set is binary-searched in place (``SetColumnView/rows(containing:within:)``) without decoding
/// its elements into Swift values.
///
/// Strings and binary compare by their bytes, ints, timestamps and bools by their numbers: the order of their
/// index keys, which is the order sets keep their elements in (`CollectionCodec`).
public struct SetProbe: Sendable {
    /// The stored form compared with each element.
    enum Form: Sendable {
        /// The bytes of a string (UTF-8) or binary element.
        case bytes([UInt8])
        /// The number of an int, timestamp or bool element (false 0, true 1).
        case word(Int64)
    }

    let element: StorageValue
    let kind: ValueKind
    let form: Form

    /// A probe for `element` in sets of `kind`; `nil` when the kind is not one compared in place (or `element` is
    /// not of that kind), so the caller keeps its object-by-object check.
    package init?(_ element: StorageValue, kind: ValueKind) {
        switch (kind, element) {
        case (.string, .string(let text)): form = .bytes(Array(text.utf8))
        case (.binary, .binary(let data)): form = .bytes(Array(data))
        case (.int, .int(let number)), (.timestamp, .timestamp(let number)): form = .word(number)
        case (.bool, .bool(let flag)): form = .word(flag ? 1 : 0)
        default: return nil
        }
        self.element = element
        self.kind = kind
    }
}

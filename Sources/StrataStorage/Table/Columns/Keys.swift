/// The identity of an object inside its table: assigned at insert, increasing, never reused while the table lives.
public struct ObjectKey: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The key's value.
    public var rawValue: Int64
    /// Wraps a raw key.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// Wraps a raw key.
    public init(_ rawValue: Int64) { self.rawValue = rawValue }
    /// Orders keys by value (the order in which a table iterates its objects).
    public static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.rawValue < rhs.rawValue }
    /// `O<value>`.
    public var description: String { "O\(rawValue)" }
}

/// The stable identity of a table in the catalog: survives renames, never reused.
public struct TableKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The key's value.
    public var rawValue: UInt32
    /// Wraps a raw key.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `T<value>`.
    public var description: String { "T\(rawValue)" }
}

/// The stable identity of a column inside its table: survives renames, never reused.
public struct ColumnKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The key's value.
    public var rawValue: UInt32
    /// Wraps a raw key.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `C<value>`.
    public var description: String { "C\(rawValue)" }
}

/// The stable identity of an index on a table.
public struct IndexKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The key's value.
    public var rawValue: UInt32
    /// Wraps a raw key.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `I<value>`.
    public var description: String { "I\(rawValue)" }
}

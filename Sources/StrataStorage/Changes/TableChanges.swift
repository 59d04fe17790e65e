/// What changed in one table between an older and a newer snapshot: the objects inserted, the objects deleted, and
/// for each object present in both, the columns whose value differs.
///
/// Computed by `Table.changes(since:)`. Every column counts, backlink and list columns included: the object layer
/// decides which of them to report (a backlink column changes when another object starts or stops linking here).
public struct TableChanges: Sendable, Equatable {
    /// Objects in the newer snapshot only, in ascending key order.
    public var insertions: [ObjectKey]
    /// Objects in the older snapshot only, in ascending key order.
    public var deletions: [ObjectKey]
    /// Objects in both snapshots whose value differs in at least one column, with those columns.
    public var modifications: [ObjectKey: Set<ColumnKey>]

    /// Changes made of the given parts.
    public init(insertions: [ObjectKey] = [], deletions: [ObjectKey] = [], modifications: [ObjectKey: Set<ColumnKey>] = [:]) {
        self.insertions = insertions
        self.deletions = deletions
        self.modifications = modifications
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { insertions.isEmpty && deletions.isEmpty && modifications.isEmpty }

    /// The keys of the modified objects, in ascending order.
    public var modifiedKeys: [ObjectKey] { modifications.keys.sorted() }
}

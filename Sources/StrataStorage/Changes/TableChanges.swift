/// What changed in one table between an older and a newer snapshot: the objects inserted, the objects deleted, and
/// for each object present in both, the columns whose value differs.
///
/// Computed by `Table.changes(since:)`. Every column counts, backlink and list columns included: the object layer
/// decides which of them to report (a backlink column changes when another object starts or stops linking here).
package struct TableChanges: Sendable, Equatable {
    /// Objects in the newer snapshot only, in ascending key order.
    package var insertions: [ObjectKey]
    /// Objects in the older snapshot only, in ascending key order.
    package var deletions: [ObjectKey]
    /// Objects in both snapshots whose value differs in at least one column, with those columns.
    package var modifications: [ObjectKey: Set<ColumnKey>]

    /// Changes made of the given parts.
    package init(insertions: [ObjectKey] = [], deletions: [ObjectKey] = [], modifications: [ObjectKey: Set<ColumnKey>] = [:]) {
        self.insertions = insertions
        self.deletions = deletions
        self.modifications = modifications
    }

    /// Whether nothing changed.
    package var isEmpty: Bool { insertions.isEmpty && deletions.isEmpty && modifications.isEmpty }

    /// The keys of the modified objects, in ascending order.
    package var modifiedKeys: [ObjectKey] { modifications.keys.sorted() }
}

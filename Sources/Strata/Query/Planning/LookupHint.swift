import StrataStorage

/// How a query whose only filter is `property == "text"` on a plain string property reads its keys: straight from
/// the property's index when the table has one, without planning the predicate again.
///
/// A lookup in a loop (`filter("name == %@", name)`, ten thousand times) plans on every evaluation, and planning
/// a comparison (copying it out of the predicate, resolving its column, choosing among the table's indexes) cost
/// as much as a fifth of what the query adds over the index lookup itself. The binding template of such a string
/// resolves the column once (``BindingTemplate``), and each filter made from it carries this hint with its
/// argument. The index is looked up on the table at every evaluation (a scan of the table's few indexes, with no
/// allocation), so a table that gains or loses the index is planned as it now is: without one the query is
/// planned in full, as any other.
///
/// The hint is derived from the query's one filter, which decides what the query selects: it takes no part in
/// comparing or hashing queries (every hint equals every other), so two queries compare as their filters do.
struct LookupHint: Hashable {
    /// The indexed column, as ``Table/index(on:)`` takes it (kept as an array so that no lookup allocates one).
    let columns: [ColumnKey]
    /// The value the column must equal, as the index stores it.
    let value: StorageValue

    /// No hint: a query planned in full (its ``keys(in:)`` and ``count(in:)`` are `nil`). A query holds this rather
    /// than an optional, so that having a hint or not makes no difference to comparing queries either.
    static let absent = LookupHint(columns: [], value: .null)

    /// The keys of the objects whose column equals ``value``, in key order, from the column's index; `nil` when
    /// the table has no such index, or for ``absent`` (the caller then plans the query in full).
    func keys(in table: Table) throws -> [ObjectKey]? {
        guard !columns.isEmpty, let index = table.index(on: columns) else { return nil }
        let keys = try table.lookup(index.key, equal: [value])
        guard keys.count > 1 else { return keys }
        // A non-unique index lists equal values' keys in key order; sorted again only if they are not.
        for position in 1..<keys.count where keys[position - 1] >= keys[position] {
            return Array(Set(keys)).sorted()
        }
        return keys
    }

    /// How many objects ``keys(in:)`` returns, counted by the index; `nil` without the index (or a hint).
    func count(in table: Table) throws -> Int? {
        guard !columns.isEmpty, let index = table.index(on: columns) else { return nil }
        return try table.lookupCount(index.key, equal: [value])
    }

    static func == (left: LookupHint, right: LookupHint) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}

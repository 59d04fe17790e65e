import StrataStorage
import Synchronization

/// The plan of one cached predicate shape (a ``BindingTemplate``): which of its terms the table's indexes can
/// answer, found once per set of indexes and reused by every call of the shape with new arguments.
///
/// Planning a query (``IndexChoice/best(for:model:table:)``) resolves each comparison's column and looks for an
/// index on it; none of that depends on the arguments, only on the predicate's shape and the table's indexes. A
/// filter made from a template carries the template's plan, and the query asks it rather than planning afresh:
/// it remembers the indexed terms for the table's indexes as it saw them (the table and every index's spec) and
/// only turns each call's constants into lookups (``IndexChoice/best(for:indexedTerms:)``). A table with other
/// indexes than those remembered (an index added or removed, by this database's write or by another process,
/// or a migration that rebuilt the table) is planned again, and its plan remembered in place of the old one.
///
/// Shared by every query of the shape and so by every thread of a frozen database: the remembered plan is
/// behind a lock, taken once per evaluation.
final class CachedPlan: Sendable {
    /// The indexed terms found for one table's indexes; `terms` is `nil` for a shape that must be planned in full
    /// every time (see ``IndexChoice/indexedTerms(of:table:)``).
    private struct Memo: Sendable {
        let table: TableKey
        let indexes: [IndexSpec]
        let terms: [IndexChoice.IndexedTerm]?
        /// The index a lone comparison (no AND) is looked up in, when the shape has one: an `==` of the shape is
        /// then that index's lookup of the argument, whatever the argument. Found once, when planned: every
        /// `filter("name == %@", name)` asks for it.
        let loneIndex: IndexSpec?

        init(table: TableKey, indexes: [IndexSpec], terms: [IndexChoice.IndexedTerm]?) {
            self.table = table
            self.indexes = indexes
            self.terms = terms
            if let terms, terms.count == 1, terms[0].term == nil, !terms[0].index.isFullText {
                loneIndex = terms[0].index
            } else {
                loneIndex = nil
            }
        }
    }

    private let memo = Mutex<Memo?>(nil)

    /// The most selective index lookup for `predicate` (a binding of this plan's shape) in `table`, with the
    /// terms left to check on each object it returns, as ``IndexChoice/best(for:model:table:)`` chooses.
    func best(for predicate: BoundPredicate, model: ModelBinding, table: Table) -> (IndexChoice, BoundPredicate?)? {
        let kept = memo.withLock { $0 }
        let terms: [IndexChoice.IndexedTerm]?
        if let kept, kept.table == table.key, table.hasIndexes(kept.indexes) {
            terms = kept.terms
        } else {
            terms = IndexChoice.indexedTerms(of: predicate, table: table)
            let planned = Memo(table: table.key, indexes: table.allIndexSpecs, terms: terms)
            memo.withLock { $0 = planned }
        }
        if let terms, let chosen = IndexChoice.best(for: predicate, indexedTerms: terms) { return chosen }
        return IndexChoice.best(for: predicate, model: model, table: table)
    }

    /// The lookup of `value` in the index on the compared column, for a filter of this plan's shape that is a lone
    /// `property == value` (the argument as ``BoundFilter/equalTo`` gives it): what ``best(for:model:table:)``
    /// chooses for it, without reading the comparison out of the predicate or copying the remembered terms.
    /// `nil` when no plan for `table`'s indexes as they are is remembered, or the shape has no index: the caller
    /// then plans through ``best(for:model:table:)``, which remembers one.
    func equalityChoice(_ value: StorageValue, table: Table) -> IndexChoice? {
        equalityIndex(table: table).map { IndexChoice.equality(value, in: $0) }
    }

    /// The index ``equalityChoice(_:table:)`` looks the value up in, or `nil` as it gives none.
    ///
    /// Reads the remembered plan in place: binding it (`guard let kept`) copied the whole memo, its arrays
    /// retained and released, on every lookup.
    func equalityIndex(table: Table) -> IndexSpec? {
        memo.withLock { kept -> IndexSpec? in
            guard kept?.table == table.key, let index = kept?.loneIndex, table.hasIndexes(kept?.indexes ?? [])
            else { return nil }
            return index
        }
    }

    /// Whether a plan is remembered now (for tests).
    var isPlanned: Bool { memo.withLock { $0 != nil } }
}

/// The cached plan a query's one filter came with, or none. It takes no part in comparing or hashing queries
/// (every slot equals every other): it is derived from the filter, which decides what the query selects.
struct PlanSlot: Hashable {
    let plan: CachedPlan?
    /// The argument of a lone `property == %@` rebound straight from its template, as the index stores it (see
    /// ``CachedPlan/equalityChoice(_:table:)``); `nil` for any other filter.
    var equalTo: StorageValue? = nil

    /// No cached plan: the query is planned in full.
    static let none = PlanSlot(plan: nil)

    static func == (left: PlanSlot, right: PlanSlot) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}

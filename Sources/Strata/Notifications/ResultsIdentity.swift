import StrataStorage

/// What two results observations share exactly when their changes are the same: the model's table, the query
/// (its source, every resolved key path by table and column, operator, option and constant, its sort and
/// distinct keys: ``ObjectQuery`` is `Hashable` down to its ``BoundPredicate``s) and the watched properties
/// (modifications depend on them). A delivery computes the change of observations with equal identities, from
/// the same baseline version, once and hands it to each of their observers.
struct ResultsIdentity: Hashable {
    let table: TableKey
    let query: ObjectQuery
    let watched: WatchedProperties
    /// The hash of the three, computed once: the identity is looked up at every delivery.
    private let hash: Int

    init(query: ObjectQuery, model: ModelBinding, watched: WatchedProperties) {
        table = model.tableKey
        self.query = query
        self.watched = watched
        var hasher = Hasher()
        hasher.combine(table)
        hasher.combine(query)
        hasher.combine(watched)
        hash = hasher.finalize()
    }

    static func == (left: ResultsIdentity, right: ResultsIdentity) -> Bool {
        left.hash == right.hash && left.table == right.table && left.query == right.query
            && left.watched == right.watched
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}

/// The results change a delivery computed for one identity of query from one baseline version.
struct SharedResultsChangeKey: Hashable {
    var identity: ResultsIdentity
    var baseline: UInt64
}

import StrataStorage

/// A query of the app's query language over a database file read with no app code: the objects of one model
/// that a predicate string selects, in key order or sorted by a key path, from the file's stored schema
/// (``StoredSchema``).
///
/// It runs the engine `Results` runs (the same parser, binder, planner with its indexes, column scans and
/// evaluator), so a predicate selects the same objects, in the same order, and a malformed one throws the same
/// `StrataError.invalidPredicate` with the offset of the problem. What `strata export --filter` and Strata
/// Studio's query box use.
///
/// ```swift
/// let query = try StoredQuery(table: people, catalog: catalog, predicate: "ANY pets.age > 3", sortedBy: "name")
/// let firstPage = try query.keys(atMost: 50)
/// ```
package struct StoredQuery {
    private let tables: CatalogTables
    private let model: ModelBinding
    private let query: ObjectQuery

    /// The objects of `table` (a table of `catalog`) that `predicate` selects (every object when `nil`), in key
    /// order, or by `sortedBy` (a property or a path through to-one links) when given.
    ///
    /// - Throws: `StrataError.invalidPredicate` with the offset of the problem for a malformed predicate, an
    ///   unknown property, a constant of the wrong type or a `%@` placeholder (there are no arguments to fill
    ///   it); `StrataError.invalidArgument` for a sort key path that names no property or goes through a list.
    package init(
        table: Table, catalog: Catalog, predicate: String?, sortedBy keyPath: String? = nil, ascending: Bool = true
    ) throws {
        let schema = StoredSchema(catalog: catalog).binding
        guard let model = schema.model(named: table.name) else {
            throw StrataError.invalidArgument("the catalog has no table \(table.name)")
        }
        var query = ObjectQuery()
        if let predicate {
            let parsed = try PredicateCache.shared.parsed(predicate)
            if let slot = parsed.slots.first {
                throw StrataError.invalidPredicate(
                    predicate: predicate, offset: slot.offset,
                    message: "a typed predicate takes no arguments: write the value in place of the placeholder")
            }
            query.filters = [try PredicateBinder(predicate: predicate, schema: schema, model: model).bind(parsed.node)]
        }
        if let keyPath {
            let path = try PredicateBinder.singleValuePath(keyPath, purpose: "sort by", schema: schema, model: model)
                .get()
            query.sortKeys = [SortKey(path: path, ascending: ascending)]
        }
        self.tables = CatalogTables(catalog: catalog)
        self.model = model
        self.query = query
    }

    /// Whether the query has a predicate.
    package var isFiltered: Bool { query.filterCount > 0 }

    /// The keys of the selected objects in the query's order: the first `limit` of them when given (an unsorted
    /// query then stops its scan once it has them; a sorted one keeps only them, in a bounded heap).
    package func keys(atMost limit: Int? = nil) throws -> [ObjectKey] {
        var limited = query
        limited.limit = limit
        return try limited.evaluate(in: tables, model: model)
    }

    /// How many objects the query selects, counted by an index or by column scans where it can (no key list).
    package func count() throws -> Int {
        try query.count(in: tables, model: model)
    }

    /// How the query runs, as `Results.explain` says it: the index it looks up or the columns it scans (and what
    /// it checks object by object), then the order.
    package func explain(atMost limit: Int? = nil) throws -> String {
        var limited = query
        limited.limit = limit
        return try limited.explain(in: tables, model: model)
    }
}

/// The tables of one catalog, for a query over a file's stored schema.
private final class CatalogTables: QueryTables {
    let catalog: Catalog

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    func table(for model: ModelBinding) throws -> Table {
        guard let table = catalog.table(model.tableKey) else {
            throw StrataError.invalidArgument("the catalog has no table for model \(model.name)")
        }
        return table
    }
}

import StrataStorage

/// Lazy, live query results: the objects of one model that a query selects, in its order.
///
/// Nothing is read until you ask for a count or an element; the keys are then computed once and kept until the
/// database changes (a commit, a refresh, any change inside a write), so results always reflect the version the
/// database reads, including the current write's own changes.
///
/// ```swift
/// let members = db.objects(Member.self)
/// members.count; members.first; members[3]
/// ```
public struct Results<Element: Object> {
    let database: Database
    let model: ModelBinding
    let query: ObjectQuery
    private let cache = KeyCache()

    init(database: Database, model: ModelBinding, query: ObjectQuery) {
        self.database = database
        self.model = model
        self.query = query
    }

    /// The keys the query selects now, computed at most once per database change.
    var keys: [ObjectKey] {
        database.withAccess("reading Results<\(Element.self)>") {
            cache.keys(stamp: database.changeStamp) {
                do {
                    return try query.evaluate(in: database, model: model)
                } catch {
                    database.fatal(error, while: "evaluating Results<\(Element.self)>")
                }
            }
        }
    }

    /// Whether the results belong to a frozen snapshot.
    public var isFrozen: Bool { database.isFrozen }
}

extension Results: RandomAccessCollection {
    /// Always `0`.
    public var startIndex: Int { 0 }

    /// The number of objects.
    ///
    /// - Complexity: O(1) once evaluated; the first access after a change evaluates the query.
    public var endIndex: Int { keys.count }

    /// The object at `index`, which must be in `0..<count`.
    public subscript(index: Int) -> Element {
        let keys = keys
        precondition(index >= 0 && index < keys.count, "Results index \(index) is out of range (count \(keys.count))")
        guard let object = database.object(of: model, key: keys[index]) as? Element else {
            preconditionFailure("Strata: Results<\(Element.self)> holds objects of \(model.name)")
        }
        return object
    }
}

/// Where a query's objects come from, before any filter.
enum QuerySource {
    /// Every object of the model's table.
    case table
}

/// What a `Results` selects: a source, then filters, ordering and distinctness (applied in that order).
struct ObjectQuery {
    var source: QuerySource = .table

    /// The keys the query selects, in order.
    func evaluate(in database: Database, model: ModelBinding) throws -> [ObjectKey] {
        switch source {
        case .table: return try database.table(for: model).keys()
        }
    }
}

/// The keys of one `Results`, kept until the database changes. A class so that copies of a `Results` share it.
final class KeyCache {
    private var stamp: UInt64?
    private var cached: [ObjectKey] = []

    func keys(stamp current: UInt64, _ compute: () -> [ObjectKey]) -> [ObjectKey] {
        if stamp == current { return cached }
        cached = compute()
        stamp = current
        return cached
    }
}

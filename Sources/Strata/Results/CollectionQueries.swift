import StrataStorage

/// A collection of objects that answers the query API as a table does (`filter`, `where`, `sorted`,
/// `distinct`, aggregates): a list or set of links (`List`, `MutableSet`) and the inverse of a link or list
/// (`LinkingObjects`).
public protocol QueryableObjectCollection {
    /// The model of the collection's objects.
    associatedtype Element: Object
    /// Live results over the collection's objects, in its order; `nil` while the collection is unmanaged.
    var queryResults: Results<Element>? { get }
}

extension QueryableObjectCollection {
    /// The results, or an error saying the collection must be managed first.
    func requireResults(_ what: String) throws -> Results<Element> {
        guard let results = queryResults else {
            throw StrataError.invalidArgument(
                "\(what) on \(Self.self) needs a managed collection: add its object to a database first, or filter "
                    + "the array")
        }
        return results
    }

    /// The results for an operation that cannot throw; an unmanaged collection is a programming error.
    func results(_ what: String) -> Results<Element> {
        guard let results = queryResults else {
            preconditionFailure("Strata: \(what) on an unmanaged \(Self.self): add its object to a database first")
        }
        return results
    }
}

extension List: QueryableObjectCollection where Element: Object {
    /// Live results over the list's objects, in list order; `nil` while the list is unmanaged.
    public var queryResults: Results<Element>? {
        guard let storage = managedStorage as? ManagedListStorage<Element> else { return nil }
        let row = storage.row
        guard let target = row.model.linkTargets[storage.column] else { return nil }
        return Results(database: row.database, model: target,
                       query: ObjectQuery(source: .list(owner: row.model, key: row.key, column: storage.column)))
    }
}

extension MutableSet: QueryableObjectCollection where Element: Object {
    /// Live results over the set's objects, in set order; `nil` while the set is unmanaged.
    public var queryResults: Results<Element>? {
        guard let storage = managedStorage as? ManagedSetStorage<Element> else { return nil }
        let row = storage.row
        guard let target = row.model.linkTargets[storage.column] else { return nil }
        return Results(database: row.database, model: target,
                       query: ObjectQuery(source: .list(owner: row.model, key: row.key, column: storage.column)))
    }
}

extension LinkingObjects: QueryableObjectCollection {
    /// Live results over the linking objects, direct inverses and inverses declared through a list alike; `nil`
    /// for an unmanaged object's.
    public var queryResults: Results<Element>? {
        guard let storage = managedStorage as? ManagedLinkingObjects<Element> else { return nil }
        return Results(database: storage.target.database, model: storage.source,
                       query: ObjectQuery(source: .linkingObjects(
                           target: storage.target.model, key: storage.target.key, source: storage.source,
                           column: storage.sourceColumn,
                           hop: storage.intermediate.map { LinkHop(model: $0.model, column: $0.column) })))
    }
}

extension QueryableObjectCollection {
    /// The collection's objects that satisfy a predicate string, in the collection's order, as live ``Results``.
    ///
    /// - Throws: `StrataError.invalidPredicate` for a bad predicate; `StrataError.invalidArgument` for an
    ///   unmanaged collection.
    public func filter(_ predicateFormat: String, _ arguments: Any...) throws -> Results<Element> {
        try requireResults("filter").filter(predicateFormat, arguments: arguments)
    }

    /// ``filter(_:_:)`` with the arguments as an array.
    public func filter(_ predicateFormat: String, arguments: [Any]) throws -> Results<Element> {
        try requireResults("filter").filter(predicateFormat, arguments: arguments)
    }

    /// The collection's objects that satisfy a typed query.
    public func `where`(_ query: (Query<Element>) -> QueryPredicate) throws -> Results<Element> {
        try requireResults("where").where(query)
    }

    /// The collection's objects sorted by a key path.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        results("sorted(byKeyPath:)").sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The collection's objects sorted by several keys.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        results("sorted(by:)").sorted(by: descriptors)
    }

    /// The first object of each distinct combination of values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        results("distinct(by:)").distinct(by: keyPaths)
    }

    /// The smallest value of a property over the collection's objects.
    public func min<T: AggregatableValue>(ofProperty property: String) -> T? {
        queryResults?.min(ofProperty: property)
    }

    /// The largest value of a property over the collection's objects.
    public func max<T: AggregatableValue>(ofProperty property: String) -> T? {
        queryResults?.max(ofProperty: property)
    }

    /// The sum of a property over the collection's objects.
    public func sum<T: AggregatableValue>(ofProperty property: String) -> T {
        queryResults?.sum(ofProperty: property) ?? T(aggregate: .int(0))
    }

    /// The mean of a property over the collection's objects.
    public func average(ofProperty property: String) -> Double? {
        queryResults?.average(ofProperty: property)
    }
}

extension QueryableObjectCollection {
    /// The collection's objects, in its order, read the throwing way (see ``Results/fetch()``): a damaged file
    /// is thrown as `StrataError.corruptFile` instead of stopping the program as iteration does.
    ///
    /// - Throws: `StrataError.corruptFile`; `StrataError.invalidArgument` for an unmanaged collection.
    public func fetch() throws -> [Element] {
        try requireResults("fetch()").fetch()
    }

    /// The number of the collection's objects, read the throwing way (see ``Results/fetchCount()``).
    public func fetchCount() throws -> Int {
        try requireResults("fetchCount()").fetchCount()
    }

    /// ``min(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchMin<T: AggregatableValue>(ofProperty property: String) throws -> T? {
        try requireResults("fetchMin(ofProperty:)").fetchMin(ofProperty: property)
    }

    /// ``max(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchMax<T: AggregatableValue>(ofProperty property: String) throws -> T? {
        try requireResults("fetchMax(ofProperty:)").fetchMax(ofProperty: property)
    }

    /// ``sum(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchSum<T: AggregatableValue>(ofProperty property: String) throws -> T {
        try requireResults("fetchSum(ofProperty:)").fetchSum(ofProperty: property)
    }

    /// ``average(ofProperty:)``, throwing a storage failure instead of stopping the program.
    public func fetchAverage(ofProperty property: String) throws -> Double? {
        try requireResults("fetchAverage(ofProperty:)").fetchAverage(ofProperty: property)
    }
}

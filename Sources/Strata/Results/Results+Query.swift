import StrataStorage

extension Results {
    /// The objects that also satisfy a predicate string (see docs/QUERIES.md); `%@`, `%d`, `%f`
    /// and `%K` take `arguments` in order.
    ///
    /// ```swift
    /// try people.filter("age >= %@ AND name BEGINSWITH[c] %@", 18, "a")
    /// ```
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the token and its offset: malformed syntax, an unknown
    ///   property, an argument of the wrong type, or an operator that does not apply to the property's type.
    public func filter(_ predicateFormat: String, _ arguments: Any...) throws -> Results<Element> {
        try filter(predicateFormat, arguments: arguments)
    }

    /// ``filter(_:_:)`` with one string argument (`filter("name == %@", name)`): the same objects, with the
    /// string passed as it is rather than in an array of `Any`, which a lookup in a loop would allocate, box the
    /// string into and cast it back out of on every call.
    public func filter(_ predicateFormat: String, _ argument: String) throws -> Results<Element> {
        let owned = filtersAsOwner()
        return with(
            try query.filtered(
                by: predicateFormat, text: argument, plans: database.queryPlans, model: model,
                schema: database.schema, owned: owned))
    }

    /// ``filter(_:_:)`` with the arguments as an array.
    ///
    /// Results of a database that is not frozen must be filtered where the database belongs (its thread, queue,
    /// task or actor), as they are read: the shape cache keeps the owner's last shape without a lock.
    public func filter(_ predicateFormat: String, arguments: [Any]) throws -> Results<Element> {
        let owned = filtersAsOwner()
        return with(
            try query.filtered(
                by: predicateFormat, arguments: arguments, plans: database.queryPlans, model: model,
                schema: database.schema, owned: owned))
    }

    /// Whether the database is live (not frozen), having checked that this runs where it belongs: the shape
    /// cache's slot for the owner's last shape may then be used without its lock. A frozen database's results are
    /// filtered from anywhere, through the lock.
    private func filtersAsOwner() -> Bool {
        let owned = database.frozenLock == nil
        if owned { database.confinement.check("filtering Results<\(Element.self)>") }
        return owned
    }

    /// The objects that also satisfy a typed query, which has the power of predicate strings.
    ///
    /// ```swift
    /// try people.where { $0.age > 18 && $0.name.starts(with: "A") && $0.dogs.count > 0 }
    /// ```
    ///
    /// - Throws: `StrataError.invalidPredicate` for an unknown property or a value of the wrong type.
    public func `where`(_ query: (Query<Element>) -> QueryPredicate) throws -> Results<Element> {
        let predicate = query(Query<Element>())
        return with(try adding(predicate.node, text: predicate.description))
    }

    private func adding(_ node: PredicateNode, text: String) throws -> ObjectQuery {
        let binder = PredicateBinder(predicate: text, schema: database.schema, model: model)
        var query = self.query
        query.filters.append(try binder.bind(node))
        query.planSlot = .none
        return query
    }

    /// The same objects sorted by one key path (a property, or a path through to-one links).
    ///
    /// An unknown key path (or one through a list) does not stop the program: the results keep the error as
    /// ``keyPathError``, the throwing reads (``fetch()``, ``fetchCount()``, …) and ``observe(keyPaths:on:_:)``
    /// report it, and the non-throwing reads see no objects (see docs/QUERIES.md, "Sorting and distinct").
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The same objects sorted by several keys, the first deciding first; equal objects keep their order.
    ///
    /// Sorting again replaces the previous order (as in Realm). nil sorts before every value, and an object whose
    /// link on the way is nil after every value (as in Realm; the other way round when descending); strings sort
    /// by their Unicode scalars (their UTF-8 bytes). An unknown key path is kept as ``keyPathError``, as in
    /// ``sorted(byKeyPath:ascending:)``.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        var query = self.query
        var keys: [SortKey] = []
        for descriptor in descriptors {
            switch resolveSingle(descriptor.keyPath, purpose: "sort by") {
            case .success(let path):
                keys.append(SortKey(path: path, ascending: descriptor.ascending, collation: descriptor.collation))
            case .failure(let error):
                if query.failure == nil { query.failure = error }
                return with(query)
            }
        }
        query.sortKeys = keys
        return with(query)
    }

    /// The first object of each distinct combination of values of `keyPaths`, in the current order. An unknown
    /// key path is kept as ``keyPathError``, as in ``sorted(byKeyPath:ascending:)``.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        var query = self.query
        for keyPath in keyPaths {
            switch resolveSingle(keyPath, purpose: "distinct by") {
            case .success(let path): query.distinctPaths.append(path)
            case .failure(let error):
                if query.failure == nil { query.failure = error }
                return with(query)
            }
        }
        return with(query)
    }

    /// The error of the first key path given to `sorted` or `distinct` (on these results or those they were made
    /// from) that names no property of the model or goes through a list; `nil` when every one resolved.
    ///
    /// While it is set, ``fetch()``, ``fetchCount()``, ``fetchFirst()`` and the `fetch` aggregates throw it,
    /// ``observe(keyPaths:on:_:)`` delivers it as `.error`, and the non-throwing reads (`count`, iteration,
    /// subscripts, `min`/`max`/`sum`/`average`) see no objects.
    public var keyPathError: StrataError? { query.failure }

    /// A key path that yields one value per object, or the error naming the problem.
    func resolveSingle(_ keyPath: String, purpose: String) -> Result<BoundPath, StrataError> {
        PredicateBinder.singleValuePath(keyPath, purpose: purpose, schema: database.schema, model: model)
    }
}

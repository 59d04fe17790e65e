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

    /// ``filter(_:_:)`` with the arguments as an array.
    public func filter(_ predicateFormat: String, arguments: [Any]) throws -> Results<Element> {
        var query = self.query
        query.filters.append(
            try database.bindingTemplates.bind(
                predicateFormat, arguments: arguments, model: model, schema: database.schema))
        return with(query)
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
        return query
    }

    /// The same objects sorted by one key path (a property, or a path through to-one links).
    ///
    /// An unknown key path is a programming error and stops with a message naming it.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The same objects sorted by several keys, the first deciding first; equal objects keep their order.
    ///
    /// Sorting again replaces the previous order (as in Realm). nil sorts before every value; strings sort by
    /// their UTF-8 bytes.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        var query = self.query
        query.sortKeys = descriptors.map { SortKey(path: resolveSingle($0.keyPath, purpose: "sort by"), ascending: $0.ascending) }
        return with(query)
    }

    /// The first object of each distinct combination of values of `keyPaths`, in the current order.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        var query = self.query
        query.distinctPaths += keyPaths.map { resolveSingle($0, purpose: "distinct by") }
        return with(query)
    }

    /// A key path that yields one value per object, or a stop naming the problem.
    func resolveSingle(_ keyPath: String, purpose: String) -> BoundPath {
        let binder = PredicateBinder(predicate: keyPath, schema: database.schema, model: model)
        do {
            let path = try binder.resolve(root: .object, keyPath.split(separator: ".").map(String.init), offset: 0)
            guard !path.isToMany else {
                throw StrataError.invalidArgument("'\(keyPath)' of \(model.name) goes through a list; "
                    + "\(purpose) a property or a path through to-one links")
            }
            return path
        } catch {
            preconditionFailure("Strata: cannot \(purpose) '\(keyPath)' of \(model.name): \(error)")
        }
    }
}

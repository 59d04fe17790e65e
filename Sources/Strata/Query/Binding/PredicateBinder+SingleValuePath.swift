import StrataStorage

extension PredicateBinder {
    /// `keyPath` of `model` (a property, or a path through to-one links) as a path that yields one value per
    /// object, or the error naming the problem: what sorting and distinct take (`Results.sorted(byKeyPath:)`, a
    /// ``StoredQuery``'s order).
    ///
    /// - Parameter purpose: What the path is for, in the message: `sort by`, `distinct by`.
    static func singleValuePath(
        _ keyPath: String, purpose: String, schema: SchemaBinding, model: ModelBinding
    ) -> Result<BoundPath, StrataError> {
        let binder = PredicateBinder(predicate: keyPath, schema: schema, model: model)
        do {
            let path = try binder.resolve(root: .object, keyPath.split(separator: ".").map(String.init), offset: 0)
            guard !path.isToMany else {
                return .failure(.invalidArgument("cannot \(purpose) '\(keyPath)' of \(model.name): it goes through a "
                    + "list; \(purpose) a property or a path through to-one links"))
            }
            return .success(path)
        } catch StrataError.invalidPredicate(_, _, let message) {
            return .failure(.invalidArgument("cannot \(purpose) '\(keyPath)' of \(model.name): \(message)"))
        } catch {
            return .failure(.invalidArgument("cannot \(purpose) '\(keyPath)' of \(model.name): \(error)"))
        }
    }
}

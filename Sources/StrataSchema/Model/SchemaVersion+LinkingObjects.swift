/// Which links a `linkingObjects` property is the inverse of.
extension SchemaVersion {
    /// The key path, from the source model, that reaches `model` for the linking-objects property `property`
    /// of `model`; `nil` when the property is not a linking-objects property or names no valid link.
    ///
    /// Usually one step: `borrowers: { linkingObjects: Person.favourite }` on `Book`, where `Person.favourite`
    /// is `Book?`, gives `["favourite"]`. docs/SCHEMA.md's "Links" section also writes
    /// `borrowers: { linkingObjects: Person.loans }` on `Book` with `Person.loans: [Loan]` and `Loan.book: Book?`:
    /// the borrowers are the people whose loans are of this book. So when the named link or list leads to a
    /// model that has exactly one stored link or list to `model`, the path continues through it:
    /// `["loans", "book"]`. With several candidate links the property is ambiguous and `nil` is returned.
    public func linkingObjectsKeyPath(of property: PropertyDefinition, in model: String) -> [String]? {
        Self.linkingObjectsKeyPath(of: property, in: model, modelNamed: self.model(named:))
    }

    /// ``linkingObjectsKeyPath(of:in:)`` with the version's models found by `modelNamed`, so that a caller
    /// checking every property of a large version looks them up in constant time rather than by a scan each.
    package static func linkingObjectsKeyPath(
        of property: PropertyDefinition, in model: String, modelNamed: (String) -> ModelDefinition?
    ) -> [String]? {
        guard case .linkingObjects(let sourceName, let linkName) = property.type,
            let source = modelNamed(sourceName),
            let link = source.property(named: linkName), !link.isTransient,
            let target = storedLinkTarget(of: link.type)
        else { return nil }
        if target == model { return [linkName] }
        guard let intermediate = modelNamed(target) else { return nil }
        let hops = intermediate.properties.filter { !$0.isTransient && storedLinkTarget(of: $0.type) == model }
        guard hops.count == 1, let hop = hops.first else { return nil }
        return [linkName, hop.name]
    }

    /// The model a stored to-one link (`Model?`), or list, set or map of links (`[Model]`, `set<Model>`,
    /// `map<Model?>`) points to.
    package static func storedLinkTarget(of type: PropertyType) -> String? {
        switch type {
        case .optional(.link(let target)), .list(.link(let target)), .set(.link(let target)),
            .map(.optional(.link(let target))):
            return target
        default: return nil
        }
    }
}

import StrataSchema
import StrataStorage

/// The delete rules of one schema version (`onDelete:`, docs/SCHEMA.md "Delete rules") and the deletes that
/// apply them.
///
/// A delete runs in three passes, all inside the caller's write:
///
/// 1. the set: its roots, then, transitively, what each object of the set reaches through its `cascade` properties
///    and its links to embedded objects (so that the embedded objects' own rules apply); an object reached twice,
///    or through a cycle, is in the set once;
/// 2. the checks: every `deny` property of every object of the set must reach only objects of the set, or the
///    delete throws `StrataError.deleteDenied` before anything changed;
/// 3. the deletes, one batch per table (each cluster read and rewritten once), which nullify every link to the
///    objects from outside the set as a plain delete does (links inside the set go with them).
struct DeleteRules: Sendable {
    /// One `cascade` or `deny` property (`nullify` is what every delete does anyway), or a link to an embedded
    /// model (which always cascades).
    struct Rule: Sendable {
        /// The property's name.
        let property: String
        /// What deleting an object of the model does to the objects the property reaches.
        let rule: DeleteRule
        /// The model the property reaches.
        let target: String
        /// For linkingObjects, the links followed backwards from the model to `target`, nearest first:
        /// `[Person.favourite]` for a direct inverse on `Book`, `[Loan.book, Person.loans]` for `Book.borrowers`
        /// declared through `Person.loans`. Empty for a link, list, set or map.
        let inverse: [Hop]
    }

    /// One link followed backwards: the objects of `model` whose `property` points at the current objects.
    struct Hop: Sendable {
        /// The model holding the link.
        let model: String
        /// The link, list, set or map property.
        let property: String
    }

    /// The rules by model name; empty when no property has a `cascade` or `deny` rule.
    let rules: [String: [Rule]]

    /// The rules of `models` (one schema version).
    init(models: [ModelDefinition]) {
        let hasRules = models.contains { model in
            model.properties.contains { ($0.deleteRule ?? .nullify) != .nullify }
        }
        // Links to embedded models alone change nothing: the engine deletes embedded objects with their owners.
        guard hasRules else {
            rules = [:]
            return
        }
        // Built only here: a schema without rules (most) spares every open the dictionary.
        let byName = Dictionary(models.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var rules: [String: [Rule]] = [:]
        for model in models {
            for property in model.properties {
                guard let rule = Self.rule(for: property, in: model.name, models: byName) else { continue }
                rules[model.name, default: []].append(rule)
            }
        }
        self.rules = rules
    }

    /// The rule of one property, or `nil` when deleting does nothing more than nullify through it.
    private static func rule(
        for property: PropertyDefinition, in model: String, models: [String: ModelDefinition]
    ) -> Rule? {
        guard let target = property.type.linkedModel else { return nil }
        if case .linkingObjects(let source, _) = property.type {
            guard let rule = property.deleteRule, rule != .nullify,
                let path = SchemaVersion.linkingObjectsKeyPath(of: property, in: model, modelNamed: { models[$0] })
            else { return nil }
            // The path runs from `source` to `model`; followed backwards, the last link comes first.
            var hops: [Hop] = []
            var owner = source
            for name in path {
                hops.append(Hop(model: owner, property: name))
                guard let next = models[owner]?.property(named: name)?.type.linkedModel else { return nil }
                owner = next
            }
            return Rule(property: property.name, rule: rule, target: target, inverse: hops.reversed())
        }
        guard !property.isTransient else { return nil }
        if models[target]?.isEmbedded == true {
            return Rule(property: property.name, rule: .cascade, target: target, inverse: [])
        }
        guard let rule = property.deleteRule, rule != .nullify else { return nil }
        return Rule(property: property.name, rule: rule, target: target, inverse: [])
    }

    /// Whether no property has a `cascade` or `deny` rule: every delete is then a plain delete.
    var isEmpty: Bool { rules.isEmpty }

    /// Deletes `roots` (model name and object key; objects already gone are skipped) with every rule applied.
    ///
    /// - Throws: `StrataError.deleteDenied` naming the first `deny` property (models by name, properties in their
    ///   model's order) that reaches objects this delete keeps, and how many; nothing is deleted then.
    func delete(_ roots: [(model: String, key: ObjectKey)], in catalog: Catalog) throws {
        var run = DeleteRun(rules: self, catalog: catalog)
        try run.collect(roots)
        try run.checkDenials()
        try run.deleteAll()
    }
}

/// One delete under ``DeleteRules``: the set of objects it removes and the tables and columns it reads.
private struct DeleteRun {
    /// A ``DeleteRules/Rule`` with its tables and columns looked up.
    struct ResolvedRule {
        let rule: DeleteRules.Rule
        /// The property's column, for a link, list, set or map.
        let column: ColumnKey?
        /// For linkingObjects: per hop, the table whose backlinks are read, and the linking table and column.
        let inverse: [(table: Table, origin: TableKey, column: ColumnKey)]
    }

    let rules: DeleteRules
    let catalog: Catalog
    /// Tables by model name.
    private var tables: [String: Table] = [:]
    /// Resolved rules by model name.
    private var resolved: [String: [ResolvedRule]] = [:]
    /// The objects the delete removes, by model name.
    private var doomed: [String: ObjectKeySet] = [:]

    init(rules: DeleteRules, catalog: Catalog) {
        self.rules = rules
        self.catalog = catalog
    }

    /// Pass 1: the roots that exist, and transitively what they cascade to, a model's newly reached objects at a
    /// time: each round reads the cascade properties of all of them in one walk of their table's clusters
    /// (`Table.forEachLinks`) rather than a lookup from the root per object.
    mutating func collect(_ roots: [(model: String, key: ObjectKey)]) throws {
        var requested: [String: [ObjectKey]] = [:]
        for root in roots { requested[root.model, default: []].append(root.key) }
        var current: [String: [ObjectKey]] = [:]
        for model in requested.keys.sorted() {
            let table = try table(model)
            var known = doomed[model] ?? ObjectKeySet(limit: table.nextObjectKey)
            for key in try table.existingKeys(among: requested[model] ?? []) where known.insert(key) {
                current[model, default: []].append(key)
            }
            doomed[model] = known
        }
        while !current.isEmpty {
            var next: [String: [ObjectKey]] = [:]
            for model in current.keys.sorted() {
                let keys = current[model] ?? []
                let table = try table(model)
                for rule in try rules(of: model) where rule.rule.rule == .cascade {
                    let target = rule.rule.target
                    let found = try reached(by: rule, from: keys, in: table)
                    // Taken out of the dictionaries while a million keys may go in (no lookup of the model's
                    // name per key, no copy of the set).
                    let limit = try self.table(target).nextObjectKey
                    var known = doomed.removeValue(forKey: target) ?? ObjectKeySet(limit: limit)
                    var added = next.removeValue(forKey: target) ?? []
                    for object in found where known.insert(object) { added.append(object) }
                    doomed[target] = known
                    if !added.isEmpty { next[target] = added }
                }
            }
            current = next
        }
    }

    /// Pass 2: every `deny` of the set reaches only objects of the set.
    mutating func checkDenials() throws {
        for model in doomed.keys.sorted() {
            let denials = try rules(of: model).filter { $0.rule.rule == .deny }
            guard !denials.isEmpty, let keys = doomed[model] else { continue }
            let table = try table(model)
            for rule in denials {
                let kept = doomed[rule.rule.target]
                var outside: Set<ObjectKey> = []
                for target in try reached(by: rule, from: keys.ascending, in: table) where kept?.contains(target) != true {
                    outside.insert(target)
                }
                if !outside.isEmpty {
                    throw StrataError.deleteDenied(type: model, property: rule.rule.property, count: outside.count)
                }
            }
        }
    }

    /// Pass 3: the deletes, one batch per table (`Table.delete(_:alongWith:)` for many keys: each cluster read
    /// and rewritten once). Links between objects of the set are not unlinked one by one (both ends go); every
    /// other link to them is nullified as by a plain delete. The order of the tables does not matter: no link
    /// inside the set is followed, and an embedded object gone with its owner's batch is skipped by its own.
    mutating func deleteAll() throws {
        var sets: [(table: TableKey, keys: ObjectKeySet)] = []
        var batches: [(table: Table, keys: [ObjectKey])] = []
        for model in doomed.keys.sorted() {
            guard let keys = doomed[model], keys.count > 0 else { continue }
            let table = try table(model)
            sets.append((table.key, keys))
            batches.append((table, keys.ascending))
        }
        // A few tables at most: found by a scan, not by hashing the table's key for every link.
        let isDeleted = { (table: TableKey, key: ObjectKey) in
            for set in sets where set.table == table { return set.keys.contains(key) }
            return false
        }
        for batch in batches { try batch.table.delete(batch.keys, alongWith: isDeleted) }
    }

    /// The objects of the rule's target model that `rule` reaches from the objects `keys` of `table` (once per
    /// link, so possibly with repeats).
    private func reached(by rule: ResolvedRule, from keys: [ObjectKey], in table: Table) throws -> [ObjectKey] {
        if let column = rule.column {
            var found: [ObjectKey] = []
            try table.forEachLinks(of: keys, column: column) { found += $0 }
            return found
        }
        var found: [ObjectKey] = []
        for key in keys { found += try reached(by: rule, from: key) }
        return found
    }

    /// The objects of the rule's target model that the linkingObjects `rule` reaches from object `key`.
    private func reached(by rule: ResolvedRule, from key: ObjectKey) throws -> [ObjectKey] {
        var current = [key]
        for hop in rule.inverse {
            var seen: Set<ObjectKey> = []
            var found: [ObjectKey] = []
            for object in current where try hop.table.contains(object) {
                for origin in try hop.table.backlinks(of: object, from: hop.origin, column: hop.column)
                where seen.insert(origin).inserted {
                    found.append(origin)
                }
            }
            current = found
        }
        return current
    }

    /// The table of model `name`.
    private mutating func table(_ name: String) throws -> Table {
        if let table = tables[name] { return table }
        guard let table = catalog.table(named: name) else {
            throw StrataError.invalidArgument("deleting with the delete rules: no table for model \(name)")
        }
        tables[name] = table
        return table
    }

    /// The rules of model `name`, their tables and columns looked up.
    private mutating func rules(of name: String) throws -> [ResolvedRule] {
        if let found = resolved[name] { return found }
        var found: [ResolvedRule] = []
        for rule in rules.rules[name] ?? [] {
            if rule.inverse.isEmpty {
                guard let column = try table(name).column(named: rule.property) else { continue }
                found.append(ResolvedRule(rule: rule, column: column.key, inverse: []))
                continue
            }
            var inverse: [(table: Table, origin: TableKey, column: ColumnKey)] = []
            var current = try table(name)
            for hop in rule.inverse {
                let origin = try table(hop.model)
                guard let column = origin.column(named: hop.property) else {
                    throw StrataError.invalidArgument(
                        "deleting with the delete rules of \(name).\(rule.property): no column \(hop.model)."
                            + "\(hop.property)")
                }
                inverse.append((current, origin.key, column.key))
                current = origin
            }
            found.append(ResolvedRule(rule: rule, column: nil, inverse: inverse))
        }
        resolved[name] = found
        return found
    }
}

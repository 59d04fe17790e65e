import StrataStorage

/// Applies the delete rules the file records (`cascade` and `deny` by `Model.property`, docs/SCHEMA.md "Delete
/// rules") to a delete from the studio, in the three passes the runtime uses: the set of objects to delete (the
/// object, then transitively what its `cascade` properties reach), the `deny` checks against that set, and the
/// deletes. A denied delete throws `StrataError.deleteDenied` before anything changed.
///
/// The file names each rule's property but not how a linkingObjects property is declared (which link it inverts),
/// so for a rule on a linkingObjects property the studio decides from every link to the object: `deny` refuses
/// while any object outside the set links to it, and `cascade` through linkingObjects is refused outright (the app,
/// which knows the declaration, can do that delete). Links to embedded objects are the engine's: it deletes
/// embedded objects with their owner.
struct DeletePlan {
    let catalog: Catalog
    /// `cascade` or `deny` by `Model.property`.
    let rules: [String: String]

    /// Deletes `key` of `table` and what it cascades to; returns how many objects were deleted.
    func delete(_ key: ObjectKey, of table: Table) throws -> Int {
        var order: [(table: Table, key: ObjectKey)] = [(table, key)]
        var members: Set<Member> = [Member(table: table.key, key: key)]
        var next = 0
        while next < order.count {
            let (owner, object) = order[next]
            next += 1
            for (property, rule) in rules(of: owner) where rule == "cascade" {
                guard let spec = owner.column(named: property), spec.type != .backlinks else {
                    throw StudioError(409, "\(owner.name).\(property) cascades through linkingObjects, which the file "
                        + "does not describe; delete this object from the app, which knows the declaration")
                }
                guard let target = spec.target.flatMap(catalog.table) else { continue }
                for reached in Self.links(try owner.value(object, column: spec.key))
                where members.insert(Member(table: target.key, key: reached)).inserted {
                    order.append((target, reached))
                }
            }
        }
        for (owner, object) in order {
            for (property, rule) in rules(of: owner) where rule == "deny" {
                var outside = 0
                if let spec = owner.column(named: property), spec.type != .backlinks {
                    let target = spec.target ?? owner.key
                    outside = Self.links(try owner.value(object, column: spec.key))
                        .filter { !members.contains(Member(table: target, key: $0)) }.count
                } else {
                    for spec in owner.columns where spec.type == .backlinks {
                        guard let origin = spec.target else { continue }
                        outside += Self.links(try owner.value(object, column: spec.key))
                            .filter { !members.contains(Member(table: origin, key: $0)) }.count
                    }
                }
                if outside > 0 {
                    throw StrataError.deleteDenied(type: owner.name, property: property, count: outside)
                }
            }
        }
        var deleted = 0
        for (owner, object) in order where try owner.contains(object) {
            try owner.delete(object)
            deleted += 1
        }
        return deleted
    }

    private func rules(of table: Table) -> [(property: String, rule: String)] {
        let prefix = table.name + "."
        return rules.filter { $0.key.hasPrefix(prefix) }.sorted { $0.key < $1.key }
            .map { (String($0.key.dropFirst(prefix.count)), $0.value) }
    }

    /// The object keys a link, list, set or map value reaches.
    private static func links(_ value: StorageValue) -> [ObjectKey] {
        switch value {
        case .link(let key): return [key]
        case .list(let elements):
            return elements.compactMap { if case .link(let key) = $0 { return key } else { return nil } }
        case .map(let entries):
            return entries.values.compactMap { if case .link(let key) = $0 { return key } else { return nil } }
        default: return []
        }
    }

    /// One object of the delete set.
    private struct Member: Hashable {
        let table: TableKey
        let key: ObjectKey
    }
}

/// Ownership of embedded objects.
///
/// A table flagged embedded (``Table/setEmbedded(_:)``) holds objects that belong to exactly one *slot*: a link, a
/// list element, or any other link value of a column that points at the table (every such column is an ownership
/// column; the engine needs no flag on the column). The engine keeps the rule in the two places a link changes:
///
/// - a write that would make a second slot point at an owned object (in another column, another object, or twice in
///   one list) is refused before anything changes, naming the object, its owner and the slot;
/// - an embedded object that loses its slot (the link set to another value or nil, the element removed, the list
///   cleared or replaced, the owner deleted) is deleted in the same write, and its own embedded objects with it.
///
/// An embedded object is created without an owner (inserted, then linked): the object layer links it at once.
extension Table {
    /// Flags the table as holding embedded objects (or clears the flag); the objects are not checked (a migration
    /// that makes a model embedded checks them itself, with ``unownedObjects()`` and ``sharedObjects()``).
    package func setEmbedded(_ embedded: Bool) throws {
        try catalog.requireWriter("change whether table '\(name)' is embedded")
        isEmbedded = embedded
    }

    /// The table link column `column` points at (`nil` for a column that is no link): how a query reaches an
    /// embedded table's index from its owner's table.
    package func linkedTable(_ column: ColumnKey) -> Table? {
        guard let spec = self.column(column), spec.type.isLink, let target = spec.target else { return nil }
        return catalog.table(target)
    }

    /// Whether every object of this table is owned through column `column` of table `origin`, a single link, and
    /// through nothing else: the table is embedded, that column's backlinks are its only backlinks column, and
    /// the column holds one link per object. Each object then has exactly one owner, one object of `origin`
    /// holding it in `column`, and no two objects share an owner, so a count of this table's objects (an index's
    /// count of its entries for a value) is the count of their owners, with no owner looked up.
    ///
    /// This rests on the ownership rule the engine keeps (see above): a committed embedded object always has its
    /// one slot (an object losing it is deleted in the same write; a migration refuses orphans and shared
    /// objects). Only between inserting an embedded object and linking it, inside one call of the object layer,
    /// does an object have no owner.
    package func isOwnedOnly(through origin: TableKey, column: ColumnKey) -> Bool {
        guard isEmbedded, let owner = catalog.table(origin), let spec = owner.column(column),
            case .value(.link) = spec.type
        else { return false }
        var mirrors = 0
        for spec in context.specs where spec.type == .backlinks {
            guard spec.target == origin, spec.origin == column else { return false }
            mirrors += 1
        }
        return mirrors == 1
    }

    /// The table a link column points at when that table is embedded: the column's links are then owning.
    func embeddedTarget(of spec: ColumnSpec) -> Table? {
        guard spec.type.isLink, let target = spec.target, let table = catalog.table(target), table.isEmbedded else {
            return nil
        }
        return table
    }

    /// Refuses `targets`, new links of column `spec` of object `source` to objects of the embedded table `target`,
    /// when one of them is owned already or appears twice.
    func checkClaims(_ targets: [ObjectKey], of target: Table, by source: ObjectKey, column spec: ColumnSpec) throws {
        // A single link (the common case) cannot repeat itself: no set to build.
        var seen: Set<ObjectKey> = []
        for claimed in targets {
            // Named only when refused: building it for every link cost a string per embedded object written.
            var slot: String { "\(name).\(spec.name) of object \(source.rawValue)" }
            guard targets.count == 1 || seen.insert(claimed).inserted else {
                throw StrataError.invalidArgument(
                    "embedded \(target.name) object \(claimed.rawValue) cannot be put twice in \(slot): an embedded "
                        + "object has exactly one owner; add a new, unmanaged \(target.name) instead")
            }
            if let owner = try target.owner(of: claimed) {
                throw StrataError.invalidArgument(
                    "embedded \(target.name) object \(claimed.rawValue) already belongs to \(owner); it cannot also "
                        + "be put in \(slot): an embedded object has exactly one owner; assign a new, unmanaged "
                        + "\(target.name) (a copy) instead")
            }
        }
    }

    /// Deletes the objects of `targets`, objects of this embedded table that just lost a slot, that no slot holds
    /// any more (with their own embedded objects).
    /// A single orphan (an owner's link set or cleared) goes through the one-object delete; several (a list
    /// cleared, owners deleted in a batch) go as one batch.
    func deleteOrphans(_ targets: [ObjectKey]) throws {
        var orphans: [ObjectKey] = []
        for orphan in targets where try contains(orphan) && backlinkCount(of: orphan) == 0 { orphans.append(orphan) }
        if orphans.count == 1 {
            try delete(orphans[0])
        } else if !orphans.isEmpty {
            try delete(orphans, alongWith: nil)
        }
    }

    /// `Model.property of object k`: the first slot holding `key`, or `nil` when none does.
    func owner(of key: ObjectKey) throws -> String? {
        for spec in context.specs where spec.type == .backlinks {
            guard let sources = Table.linkTargets(try value(key, column: spec.key)).first else { continue }
            let origin = spec.target.flatMap { catalog.table($0) }
            let column = spec.origin.flatMap { origin?.column($0) }
            return "\(origin?.name ?? "table \(spec.target?.rawValue ?? 0)").\(column?.name ?? "?") of object "
                + "\(sources.rawValue)"
        }
        return nil
    }

    /// The objects no slot holds, in key order: what a model that becomes embedded may not have.
    package func unownedObjects() throws -> [ObjectKey] {
        var found: [ObjectKey] = []
        try forEachKey { key in
            if try backlinkCount(of: key) == 0 { found.append(key) }
            return true
        }
        return found
    }

    /// The objects more than one slot holds, in key order, with how many.
    package func sharedObjects() throws -> [(key: ObjectKey, owners: Int)] {
        var found: [(key: ObjectKey, owners: Int)] = []
        try forEachKey { key in
            let count = try backlinkCount(of: key)
            if count > 1 { found.append((key, count)) }
            return true
        }
        return found
    }
}

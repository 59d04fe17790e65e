/// A new embedded object to insert together with its owner (``Table/insert(_:into:embedding:)``): its values in
/// the order of `columns` (as ``Table/insert(_:into:key:)`` takes them), for the owner's single-link column `link`.
public struct EmbeddedRow {
    /// The owner's link column that holds the new object: a single link to an embedded table.
    public var link: ColumnKey
    /// The embedded object's values, one per element of `columns`.
    public var values: [StorageValue]
    /// The embedded table's columns `values` are for; the others get their default.
    public var columns: [ColumnKey]

    /// Describes a new embedded object for the owner's link column `link`.
    public init(link: ColumnKey, values: [StorageValue], columns: [ColumnKey]) {
        self.link = link
        self.values = values
        self.columns = columns
    }
}

/// Inserting an object and new embedded objects it owns in one step.
///
/// Inserting the embedded object first and linking it afterwards (``Table/set(_:column:to:)``) reads the owner's old
/// link, checks the target exists and has no owner, rewrites the owner's row and then the target's backlinks: four
/// descents of two trees besides the two inserts. A new embedded object cannot exist yet nor be owned, so here the
/// owner's row is written with the link to the key the embedded object is about to get (its table's next key), and
/// the embedded object's row is written with its one backlink to the owner: each row is placed once.
extension Table {
    /// Inserts an object whose values come in the order of `columns` (as ``insert(_:into:key:)``), together with
    /// new embedded objects for some of its single-link columns, each linked and owned from the start.
    ///
    /// The owner is checked and inserted first (a taken primary key or a uniqueness rule refuses it before anything
    /// changes); the embedded objects' values are checked before that too. An embedded object that cannot be
    /// written this way (its table has a unique index, or its own links are set) is inserted and then linked
    /// through ``set(_:column:to:)``, with the same result.
    /// - Returns: the owner's key, and each embedded object's key in the order of `embedded`.
    /// - Throws: as ``insert(_:into:key:)``; `StrataError.invalidArgument` when a `link` is not a single link to an
    ///   embedded table, appears twice, or is also among `columns` with a value other than null.
    public func insert(
        _ values: [StorageValue], into columns: [ColumnKey], embedding embedded: [EmbeddedRow]
    ) throws -> (owner: ObjectKey, embedded: [ObjectKey]) {
        try catalog.requireWriter("insert into table '\(name)'")
        var row = try checkedRow(values, into: columns)
        let specs = context.specs
        // Each row is the table's spare row (`takeDefaultRow()`) unless its values were a whole row already
        // (`checkedRow` returns those as they are): given back after the insert when it is (`spare`).
        var plans: [(table: Table, row: [StorageValue], key: ObjectKey, backlink: Int, spare: Bool)] = []
        var fresh: [Int] = []
        var later: [(link: ColumnKey, table: Table, row: EmbeddedRow)] = []
        for item in embedded {
            let position = try position(of: item.link)
            // The column's description is read where it lies, not copied (its name and default) per insert.
            guard case .value(.link) = specs[position].type, let owned = embeddedTarget(of: specs[position]) else {
                throw StrataError.invalidArgument(
                    "column '\(specs[position].name)' of table '\(name)' is not a single link to an embedded table; "
                        + "insert the object and link it with set(_:column:to:)")
            }
            let repeated = fresh.contains(position) || later.contains { $0.link == item.link }
            guard !repeated, row[position].isNull else {
                throw StrataError.invalidArgument(
                    "column '\(specs[position].name)' of table '\(name)' is given more than one value; pass each link "
                        + "once")
            }
            let childRow = try owned.checkedRow(item.values, into: item.columns)
            // A table embedding its own objects would hand the owner the key planned for the new object.
            guard owned !== self, owned.takesOwnedInsert(childRow),
                let mirror = owned.backlinkPosition(origin: key, column: item.link)
            else {
                later.append((item.link, owned, item))
                continue
            }
            // Several new objects of one table get consecutive keys, in order.
            let next = owned.nextObjectKey + Int64(plans.count(where: { $0.table === owned }))
            row[position] = .link(ObjectKey(next))
            fresh.append(position)
            plans.append((owned, childRow, ObjectKey(next), mirror, item.columns.count != owned.context.keys.count))
        }
        let owner = try insert(row: row, explicitKey: nil, freshLinks: fresh)
        if columns.count != context.keys.count { giveBack(row: &row) }
        var keys: [ObjectKey] = []
        keys.reserveCapacity(embedded.count)
        for index in plans.indices {
            let plan = plans[index]
            keys.append(
                try plan.table.insert(row: plan.row, explicitKey: plan.key, backlink: (plan.backlink, owner.rawValue)))
        }
        // The rows back to their tables for the next insert, each moved out of `plans` first (a second reference
        // would make resetting them copy).
        for index in plans.indices where plans[index].spare {
            var placed: [StorageValue] = []
            swap(&placed, &plans[index].row)
            plans[index].table.giveBack(row: &placed)
        }
        for item in later {
            let key = try item.table.insert(item.row.values, into: item.row.columns)
            try set(owner, column: item.link, to: .link(key))
            keys.append(key)
        }
        // Back in the order of `embedded`.
        if !later.isEmpty {
            var ordered: [ObjectKey] = []
            var (planned, deferred) = (0, plans.count)
            for item in embedded {
                if later.contains(where: { $0.link == item.link }) {
                    ordered.append(keys[deferred])
                    deferred += 1
                } else {
                    ordered.append(keys[planned])
                    planned += 1
                }
            }
            keys = ordered
        }
        return (owner, keys)
    }

    /// A whole row (storage order) from `values` for `columns`, each value checked; the other columns' defaults.
    func checkedRow(_ values: [StorageValue], into columns: [ColumnKey]) throws -> [StorageValue] {
        guard values.count == columns.count else {
            throw StrataError.invalidArgument(
                "insert into table '\(name)' got \(values.count) values for \(columns.count) columns; pass one value "
                    + "per column")
        }
        let (positions, isWholeRow) = try positions(of: columns)
        if isWholeRow {
            for (index, value) in values.enumerated() { try checkValue(value, at: index, context.valueChecks) }
            return values
        }
        var row = takeDefaultRow()
        for (value, index) in zip(values, positions) {
            try checkValue(value, at: index, context.valueChecks)
            row[index] = value
        }
        return row
    }

    /// Whether a new object with `row` can be inserted after its owner, with its backlink, without any check that
    /// could refuse it once the owner is in: the table has no unique index to check, its next key is free, and the
    /// row links to nothing (its own links would need checks and backlinks of their own).
    private func takesOwnedInsert(_ row: [StorageValue]) -> Bool {
        guard nextObjectKey < Int64.max - 1_000, isEmbedded else { return false }
        for index in indexes where index.spec.isUnique && !index.isImplied { return false }
        for position in context.linkPositions {
            switch row[position] {
            case .null: continue
            case .list(let elements) where elements.isEmpty: continue
            case .map(let entries) where entries.isEmpty: continue
            default: return false
            }
        }
        return true
    }
}

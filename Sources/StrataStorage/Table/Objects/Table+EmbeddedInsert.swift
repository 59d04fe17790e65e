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
        // Each row is the table's spare row (`takeDefaultRow()`) unless its values were a whole row already
        // (`checkedRow` returns those as they are): given back after the insert when it is (`spare`).
        var plans: [(table: Table, row: [StorageValue], key: ObjectKey, backlink: Int, spare: Bool)] = []
        var fresh = FreshLinks()
        var later: [(link: ColumnKey, table: Table, row: EmbeddedRow)] = []
        for item in embedded {
            let (position, owned) = try ownedLink(of: item, in: row)
            guard !fresh.contains(position), !later.contains(where: { $0.link == item.link }) else {
                throw StrataError.invalidArgument(
                    "column '\(context.specs[position].name)' of table '\(name)' is given more than one value; pass "
                        + "each link once")
            }
            guard let (childRow, mirror) = try ownedRow(of: item, in: owned) else {
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
            keys.append(try plan.table.insertOwned(row: plan.row, key: plan.key, backlink: (plan.backlink, owner.rawValue)))
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

    /// Inserts an object whose values come in the order of `columns` (as ``insert(_:into:key:)``) together with
    /// one new embedded object for one of its single-link columns, linked and owned from the start: what
    /// ``insert(_:into:embedding:)`` does for `[embedded]`, without an array per insert (a person with an address,
    /// inserted a million times in one write).
    /// - Returns: the owner's key and the embedded object's key.
    /// - Throws: as ``insert(_:into:embedding:)``.
    public func insert(
        _ values: [StorageValue], into columns: [ColumnKey], embedding embedded: EmbeddedRow
    ) throws -> (owner: ObjectKey, embedded: ObjectKey) {
        try catalog.requireWriter("insert into table '\(name)'")
        var row = try checkedRow(values, into: columns)
        let (position, owned) = try ownedLink(of: embedded, in: row)
        guard var child = try ownedRow(of: embedded, in: owned) else {
            // The general way (an insert, then a link): the row given back first, as that way checks it again.
            if columns.count != context.keys.count { giveBack(row: &row) }
            let inserted = try insert(values, into: columns, embedding: [embedded])
            return (inserted.owner, inserted.embedded[0])
        }
        let next = ObjectKey(owned.nextObjectKey)
        row[position] = .link(next)
        let owner = try insert(row: row, explicitKey: nil, freshLinks: FreshLinks(position))
        if columns.count != context.keys.count { giveBack(row: &row) }
        let key = try owned.insertOwned(row: child.row, key: next, backlink: (child.backlink, owner.rawValue))
        // The row back to its table for the next insert (held once, in `child`, so resetting it does not copy).
        if embedded.columns.count != owned.context.keys.count { owned.giveBack(row: &child.row) }
        return (owner, key)
    }

    /// The storage position of `item.link` in this table and the embedded table it links to, checked: a single
    /// link to an embedded table, null in the owner's `row`.
    private func ownedLink(of item: EmbeddedRow, in row: [StorageValue]) throws -> (position: Int, owned: Table) {
        let position = try position(of: item.link)
        let specs = context.specs
        // The column's description is read where it lies, not copied (its name and default) per insert.
        guard case .value(.link) = specs[position].type, let owned = embeddedTarget(of: specs[position]) else {
            throw StrataError.invalidArgument(
                "column '\(specs[position].name)' of table '\(name)' is not a single link to an embedded table; "
                    + "insert the object and link it with set(_:column:to:)")
        }
        guard row[position].isNull else {
            throw StrataError.invalidArgument(
                "column '\(specs[position].name)' of table '\(name)' is given more than one value; pass each link "
                    + "once")
        }
        return (position, owned)
    }

    /// The checked whole row of the new object `item` of the embedded table `owned` and the position of its
    /// backlinks column for the owner's link, when it can go in after its owner with its backlink
    /// (``insertOwned(row:key:backlink:)``); `nil` when it takes the general way (an insert, then a link).
    private func ownedRow(of item: EmbeddedRow, in owned: Table) throws -> (row: [StorageValue], backlink: Int)? {
        let childRow = try owned.checkedRow(item.values, into: item.columns)
        // A table embedding its own objects would hand the owner the key planned for the new object.
        guard owned !== self, owned.takesOwnedInsert(childRow),
            let mirror = owned.backlinkPosition(origin: key, column: item.link)
        else { return nil }
        return (childRow, mirror)
    }

    /// Inserts a new embedded object's checked row (``takesOwnedInsert(_:)`` holds) under `key`, the table's next
    /// key, with its one backlink to its owner, written with the row: the row placed and its plain indexes' entries
    /// added, without the general insert's work for unique, element and full-text indexes and links, which such a
    /// row has none of.
    func insertOwned(row: [StorageValue], key objectKey: ObjectKey, backlink: (position: Int, owner: Int64)) throws
        -> ObjectKey
    {
        try placeNew(row, key: objectKey, keyIsPrimaryKey: false, backlink: backlink, encodedSet: nil)
        for index in indexes { try index.insertEntry(key: objectKey) { row[try position(of: $0)] } }
        try trimIfNeeded()
        return objectKey
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
    /// could refuse it once the owner is in: the table is embedded, its next key is free, its indexes are plain
    /// ones (no uniqueness to check, no implied key, no element or full-text entries, every column known), and the
    /// row links to nothing (its own links would need checks and backlinks of their own).
    private func takesOwnedInsert(_ row: [StorageValue]) -> Bool {
        guard nextObjectKey < Int64.max - 1_000, isEmbedded else { return false }
        for index in indexes {
            if index.isImplied || index.indexesElements { return false }
            let spec = index.spec
            if spec.isUnique || spec.isFullText { return false }
            for column in spec.columns where (try? position(of: column)) == nil { return false }
        }
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

/// The storage positions of an owner's single-link columns whose targets are new embedded objects inserted right
/// after it (``Table/insert(_:into:embedding:)``): one position held without an array (a person with an address,
/// the common case), more in an array.
struct FreshLinks {
    private var first = -1
    private var more: [Int] = []

    /// No position.
    init() {}

    /// The one position `position`.
    init(_ position: Int) { first = position }

    var isEmpty: Bool { first < 0 }

    func contains(_ position: Int) -> Bool {
        position == first || (!more.isEmpty && more.contains(position))
    }

    mutating func append(_ position: Int) {
        if first < 0 { first = position } else { more.append(position) }
    }
}

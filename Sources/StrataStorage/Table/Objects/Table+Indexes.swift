extension Table {
    /// The indexes of the table (the primary key's included).
    /// Full-text indexes are not among them (see ``fullTextIndexSpecs``).
    public var indexSpecs: [IndexSpec] { indexes.filter { !$0.spec.isFullText }.map(\.spec) }

    /// Every index of the table, ordered and full-text, in the table's order: with ``hasIndexes(_:)``, what a
    /// cached query plan checks to know that the indexes it planned for are still the table's.
    package var allIndexSpecs: [IndexSpec] { indexes.map(\.spec) }

    /// Whether the table's indexes are exactly `specs` (``allIndexSpecs`` as read earlier), compared in place.
    package func hasIndexes(_ specs: [IndexSpec]) -> Bool {
        guard indexes.count == specs.count else { return false }
        for position in specs.indices where indexes[position].spec != specs[position] { return false }
        return true
    }

    /// The index whose columns are exactly `columns`, if any (never a full-text index).
    public func index(on columns: [ColumnKey]) -> IndexSpec? {
        indexes.first { $0.spec.columns == columns && !$0.spec.isFullText }?.spec
    }

    /// Adds an ordered index over `columns` (a compound index when several) and fills it from the table.
    ///
    /// A set column of bool, int, string, timestamp, uuid, decimal or objectId elements can be indexed alone and
    /// not uniquely: the index then holds one entry per element (see ``SortedIndex/indexesElements``), and an
    /// equality lookup returns the objects whose set holds the value.
    /// - Parameter unique: whether values (together) must be unique.
    /// - Throws: `StrataError.invalidArgument` for a column that cannot be indexed (lists, maps, links, float,
    ///   double, binary; a set in a compound or unique index); `StrataError.duplicatePrimaryKey` when `unique` and
    ///   two objects share values (nothing changes).
    /// - Complexity: O(n log n).
    @discardableResult
    public func addIndex(on columns: [ColumnKey], unique: Bool = false) throws -> IndexKey {
        try addIndex(on: columns, unique: unique, mayBeImplied: false)
    }

    /// Adds an index; with `mayBeImplied` (the primary key), a unique index on a non-null integer column whose
    /// every value is its object's key is implied by the keys and stores nothing (`SortedIndex+ObjectKeys.swift`).
    @discardableResult
    private func addIndex(on columns: [ColumnKey], unique: Bool, mayBeImplied: Bool) throws -> IndexKey {
        let writer = try catalog.requireWriter("add an index to table '\(name)'")
        guard !columns.isEmpty, Set(columns).count == columns.count else {
            throw StrataError.invalidArgument("an index needs one or more distinct columns of table '\(name)'")
        }
        for column in columns {
            let spec = context.specs[try position(of: column)]
            switch spec.type {
            case .value(.int), .value(.bool), .value(.string), .value(.timestamp), .value(.uuid): break
            case .value(.decimal), .value(.objectId), .value(.mixed): break
            case .set(let kind) where Table.indexableElementKinds.contains(kind):
                guard columns.count == 1, !unique else {
                    throw StrataError.invalidArgument("set column '\(name).\(spec.name)' can only be indexed alone and "
                        + "not uniquely: its index holds one entry per element")
                }
            default:
                throw StrataError.invalidArgument("column '\(name).\(spec.name)' of type \(spec.type) cannot be indexed; "
                    + "index bool, int, string, timestamp, uuid, decimal, objectId or any columns, or sets of those "
                    + "(not of any)")
            }
        }
        if let existing = index(on: columns), existing.isUnique == unique { return existing.key }
        // A full-text index on the column is another kind of index and stays.
        let spec = IndexSpec(key: IndexKey(rawValue: nextIndexKey), columns: columns, isUnique: unique)
        let sorted = SortedIndex(
            spec: spec, root: .none, reader: reader, table: name, mixed: Table.mixedFlags(columns, context.specs),
            indexesElements: Table.isElementIndex(columns, context.specs))
        if mayBeImplied, unique, try keysEqualValues(of: columns) {
            sorted.impliedBy = tree
            nextIndexKey += 1
            indexes.append(sorted)
            return spec.key
        }
        do {
            try forEachKey { key in
                let values = try indexValues(sorted, key: key, override: nil)
                if unique { try checkUnique(sorted, values: values, excluding: nil, primaryKey: mayBeImplied) }
                for entry in indexEntries(sorted, values: values, key: key) { try sorted.insert(entry: entry) }
                if sorted.nodes.loadedLeaves > Catalog.loadedLeafLimit { _ = try sorted.nodes.flush(in: writer) }
                return true
            }
        } catch {
            try sorted.destroy(in: writer)
            throw error
        }
        nextIndexKey += 1
        indexes.append(sorted)
        return spec.key
    }

    /// Removes an index (never the data).
    package func removeIndex(_ index: IndexKey) throws {
        let writer = try catalog.requireWriter("remove an index of table '\(name)'")
        guard let position = indexes.firstIndex(where: { $0.spec.key == index }) else {
            throw StrataError.invalidArgument("table '\(name)' has no index \(index)")
        }
        let spec = indexes[position].spec
        if spec.columns == [primaryKey].compactMap({ $0 }) && spec.isUnique && !spec.isFullText { primaryKey = nil }
        try indexes[position].destroy(in: writer)
        indexes.remove(at: position)
    }

    /// Makes `column` (int, string, uuid or objectId) the primary key, building its unique index; `nil` removes it.
    /// - Throws: `StrataError.duplicatePrimaryKey` naming a value two objects share.
    public func setPrimaryKey(_ column: ColumnKey?) throws {
        try catalog.requireWriter("set the primary key of table '\(name)'")
        if let old = primaryKey, let index = index(on: [old]), index.isUnique {
            primaryKey = nil
            try removeIndex(index.key)
        }
        guard let column else { return }
        let spec = context.specs[try position(of: column)]
        switch spec.type {
        case .value(.int), .value(.string), .value(.uuid), .value(.objectId): break
        default:
            throw StrataError.invalidArgument(
                "'\(name).\(spec.name)' of type \(spec.type) cannot be a primary key; use int, string, uuid or objectId")
        }
        try addIndex(on: [column], unique: true, mayBeImplied: true)
        primaryKey = column
    }

    /// The object whose primary key is `value`.
    /// - Complexity: O(log n), read in place through the primary-key index.
    public func find(primaryKey value: StorageValue) throws -> ObjectKey? {
        guard let column = primaryKey, let index = indexes.first(where: { $0.spec.columns == [column] && $0.spec.isUnique }) else {
            throw StrataError.invalidArgument("table '\(name)' has no primary key")
        }
        if index.isImplied {
            // The object whose key is the value, found by one descent of the cluster tree.
            guard case .int(let number) = value, try contains(ObjectKey(number)) else { return nil }
            return ObjectKey(number)
        }
        return try index.holder(of: index.encode([value]))
    }

    /// Objects whose indexed values equal `values` (all the index's columns, or a leading part of them), in index
    /// order; at most `limit` of them (a query planner reads a few to tell a selective lookup from a wide one).
    public func lookup(_ index: IndexKey, equal values: [StorageValue], limit: Int = .max) throws -> [ObjectKey] {
        let sorted = try sortedIndex(index)
        return try sorted.keys(withPrefix: sorted.encode(values), limit: limit)
    }

    /// ``lookup(_:equal:limit:)`` of one value (the index's first column): the value is encoded without an array
    /// of values around it, as a query's `property == value` looks it up on every call.
    package func lookup(_ index: IndexKey, equalTo value: StorageValue, limit: Int = .max) throws -> [ObjectKey] {
        let sorted = try sortedIndex(index)
        return try IndexKeyEncoding.withEncoding(of: value, mixed: sorted.mixed.first ?? false) { prefix in
            try sorted.foundKeys(withPrefix: prefix, limit: limit).array
        }
    }

    /// ``lookup(_:equalTo:limit:)`` with the first key inline (``FoundKeys``): a lookup that finds one object, as
    /// a query's `name == %@` in a loop usually does, allocates nothing for its answer.
    package func lookupFound(_ index: IndexKey, equalTo value: StorageValue) throws -> FoundKeys {
        let sorted = try sortedIndex(index)
        return try IndexKeyEncoding.withEncoding(of: value, mixed: sorted.mixed.first ?? false) { prefix in
            try sorted.foundKeys(withPrefix: prefix)
        }
    }

    /// Objects whose indexed value is any of `candidates` (`IN`), in the order of `candidates`.
    package func lookup(_ index: IndexKey, in candidates: [StorageValue]) throws -> [ObjectKey] {
        let sorted = try sortedIndex(index)
        var result: [ObjectKey] = []
        for candidate in Set(candidates) { result += try sorted.keys(withPrefix: sorted.encode([candidate])) }
        return result
    }

    /// Objects whose value (after equal `leading` values on a compound index) lies between the bounds, in index
    /// order. A missing bound is open; nulls never match a range.
    package func lookup(
        _ index: IndexKey, leading: [StorageValue] = [], from lower: StorageValue?, lowerInclusive: Bool = true,
        to upper: StorageValue?, upperInclusive: Bool = false
    ) throws -> [ObjectKey] {
        let sorted = try sortedIndex(index)
        let (head, lowerBound, upperBytes) = Self.rangeBytes(sorted, leading: leading, lower: lower, upper: upper)
        let lowerBytes = lowerBound ?? head + [1]
        var result: [ObjectKey] = []
        try sorted.forEachEntry(from: lowerBytes) { entry in
            guard SortedIndex.hasPrefix(entry, head) else { return false }
            let values = UnsafeRawBufferPointer(rebasing: entry[..<max(0, entry.count - 8)])
            if lower != nil, !lowerInclusive, SortedIndex.hasPrefix(values, lowerBytes) { return true }
            if let upperBytes {
                let within = SortedIndex.hasPrefix(values, upperBytes)
                    ? upperInclusive
                    : upperBytes.withUnsafeBytes { ByteOrder.compare(values, $0) } < 0
                if !within { return false }
            }
            result.append(IndexKeyEncoding.objectKey(ofEntry: entry))
            return true
        }
        return result
    }

    /// Objects whose indexed string starts with `prefix` (comparing UTF-8 bytes), in index order; at most `limit`.
    package func lookup(
        _ index: IndexKey, leading: [StorageValue] = [], prefix: String, limit: Int = .max
    ) throws -> [ObjectKey] {
        let sorted = try sortedIndex(index)
        return try sorted.keys(withPrefix: IndexKeyEncoding.stringPrefix(prefix, after: leading, mixed: sorted.mixed), limit: limit)
    }

    /// How many objects ``lookup(_:equal:limit:)`` would return, counted without reading them (two descents of
    /// the index); `nil` when the index cannot count (an index implied by the object keys).
    package func lookupCount(_ index: IndexKey, equal values: [StorageValue]) throws -> Int? {
        let sorted = try sortedIndex(index)
        return try sorted.count(withPrefix: sorted.encode(values))
    }

    /// How many objects ``lookup(_:leading:prefix:limit:)`` would return, counted without reading them.
    package func lookupCount(_ index: IndexKey, leading: [StorageValue] = [], prefix: String) throws -> Int? {
        let sorted = try sortedIndex(index)
        return try sorted.count(withPrefix: IndexKeyEncoding.stringPrefix(prefix, after: leading, mixed: sorted.mixed))
    }

    /// How many objects ``lookup(_:in:)`` would return, counted without reading them (two descents per value).
    package func lookupCount(_ index: IndexKey, in candidates: [StorageValue]) throws -> Int? {
        var total = 0
        for candidate in Set(candidates) {
            guard let count = try lookupCount(index, equal: [candidate]) else { return nil }
            total += count
        }
        return total
    }

    /// How many objects ``lookup(_:leading:from:lowerInclusive:to:upperInclusive:)`` would return, counted
    /// without reading them (two descents).
    package func lookupCount(
        _ index: IndexKey, leading: [StorageValue] = [], from lower: StorageValue?, lowerInclusive: Bool = true,
        to upper: StorageValue?, upperInclusive: Bool = false
    ) throws -> Int? {
        let sorted = try sortedIndex(index)
        let (head, lowerBytes, upperBytes) = Self.rangeBytes(sorted, leading: leading, lower: lower, upper: upper)
        // As the lookup reads: entries with the bound's bytes are the bound's own, in or out with it; no lower
        // bound starts after the nulls (`head + [1]`); no upper bound ends with `head`'s entries.
        let start = lowerBytes.map { lowerInclusive ? $0 : SortedIndex.firstBytes(after: $0) } ?? head + [1]
        let end = upperBytes.map { upperInclusive ? SortedIndex.firstBytes(after: $0) : $0 }
            ?? SortedIndex.firstBytes(after: head)
        guard let start else { return 0 }
        return try sorted.count(from: start, before: end)
    }

    /// A range lookup's bounds as the index stores them: the `leading` values' encoding, and each bound after it.
    private static func rangeBytes(
        _ index: SortedIndex, leading: [StorageValue], lower: StorageValue?, upper: StorageValue?
    ) -> (head: [UInt8], lower: [UInt8]?, upper: [UInt8]?) {
        (index.encode(leading), lower.map { index.encode(leading + [$0]) }, upper.map { index.encode(leading + [$0]) })
    }

    /// The element kinds of a set column that an index can hold (``addIndex(on:unique:)``).
    static let indexableElementKinds: Set<ValueKind> = [.bool, .int, .string, .timestamp, .uuid, .decimal, .objectId]

    /// Whether `columns` is one set column of `specs`: an index over it holds one entry per element.
    static func isElementIndex(_ columns: [ColumnKey], _ specs: [ColumnSpec]) -> Bool {
        guard columns.count == 1, let spec = specs.first(where: { $0.key == columns[0] }), case .set = spec.type else {
            return false
        }
        return true
    }

    /// For each of `columns`, whether it is a mixed (`any`) column of `specs`.
    static func mixedFlags(_ columns: [ColumnKey], _ specs: [ColumnSpec]) -> [Bool] {
        columns.map { column in specs.first { $0.key == column }?.type == .value(.mixed) }
    }

    // MARK: Internals

    /// Whether `columns` is one non-null integer column whose value is every object's key (true for no objects).
    private func keysEqualValues(of columns: [ColumnKey]) throws -> Bool {
        guard columns.count == 1, let spec = column(columns[0]), spec.type == .value(.int), !spec.isNullable else { return false }
        var equal = true
        try forEachKey { key in
            let inRange = key.rawValue >= 0 && key.rawValue <= SortedIndex.largestImpliedValue
            equal = try inRange && int(key, column: spec.key) == key.rawValue
            return equal
        }
        return equal
    }

    /// Whether every object's key is its value of `column`: the table's integer primary key while its index is
    /// implied by the object keys. Ordering objects by that column is then ordering them by key.
    package func keysAreValues(of column: ColumnKey) -> Bool {
        impliedPrimaryKeyIndex?.spec.columns[0] == column
    }

    /// The primary key's index while it is implied by the object keys.
    var impliedPrimaryKeyIndex: SortedIndex? {
        guard let primaryKey else { return nil }
        // Compared element-wise: `== [primaryKey]` built an array on every insert.
        for index in indexes where index.isImplied && index.spec.columns.count == 1 && index.spec.columns[0] == primaryKey {
            return index
        }
        return nil
    }

    func sortedIndex(_ key: IndexKey) throws -> SortedIndex {
        guard let index = indexes.first(where: { $0.spec.key == key }) else {
            throw StrataError.invalidArgument("table '\(name)' has no index \(key)")
        }
        return index
    }

    /// The entries `index` holds for an object with the indexed `values`: one for a sorted index, a posting per
    /// term and a length entry for a full-text index (none for text without tokens).
    func indexEntries(_ index: SortedIndex, values: [StorageValue], key: ObjectKey) -> [[UInt8]] {
        if index.spec.isFullText {
            return FullTextEntry.entries(for: values.first ?? .null, key: key, trigrams: index.spec.isTrigrams)
        }
        if index.indexesElements { return Table.elementEntries(values.first ?? .null, key: key) }
        return [IndexKeyEncoding.entry(values: index.encode(values), key: key)]
    }

    /// The entries of an index over a set column for an object whose set is `value`: one per distinct element,
    /// in index order (none for an empty set).
    static func elementEntries(_ value: StorageValue, key: ObjectKey) -> [[UInt8]] {
        guard case .list(let elements) = value, !elements.isEmpty else { return [] }
        var entries: [[UInt8]] = []
        entries.reserveCapacity(elements.count)
        for element in elements {
            var entry: [UInt8] = []
            entry.reserveCapacity(32)
            IndexKeyEncoding.append(element, to: &entry)
            ByteOrder.withKey(key.rawValue) { entry.append(contentsOf: $0) }
            entries.append(entry)
        }
        guard entries.count > 1 else { return entries }
        // A stored set holds distinct elements already; a row on its way in may not, and equal elements encode
        // equally.
        entries.sort { ByteOrder.compare($0, $1) < 0 }
        var previous: [UInt8]?
        entries.removeAll { entry in
            defer { previous = entry }
            return entry == previous
        }
        return entries
    }

    func indexValues(_ index: SortedIndex, row: [StorageValue]) throws -> [StorageValue] {
        try index.spec.columns.map { row[try position(of: $0)] }
    }

    func indexValues(_ index: SortedIndex, key: ObjectKey, override: (ColumnKey, StorageValue)?) throws -> [StorageValue] {
        try index.spec.columns.map { column in
            if let override, override.0 == column { return override.1 }
            return try value(key, column: column)
        }
    }

    /// Throws when an object other than `excluding` holds `values` in unique `index`. `primaryKey` says whether the
    /// index is the primary key's (by default, whether it is now; `setPrimaryKey` builds it before it is).
    func checkUnique(
        _ index: SortedIndex, values: [StorageValue], excluding: ObjectKey?, primaryKey: Bool? = nil
    ) throws {
        let isKey = primaryKey ?? isPrimaryKeyIndex(index)
        if !isKey, values.contains(where: \.isNull) { return }
        let holders = try index.keys(withPrefix: index.encode(values), limit: 2)
        if let holder = holders.first(where: { $0 != excluding }) {
            throw uniquenessError(index, values: values, holder: holder, primaryKey: isKey)
        }
    }

    /// Whether `index` is the primary key's: its values always collide, where a uniqueness rule's (any other
    /// unique index) never collide when one of them is null.
    func isPrimaryKeyIndex(_ index: SortedIndex) -> Bool {
        guard let primaryKey else { return false }
        return index.spec.isUnique && index.spec.columns.count == 1 && index.spec.columns[0] == primaryKey
    }

    /// Whether a unique index refuses a second object with `values`: always for the primary key, and for a
    /// uniqueness rule unless a value is null (nulls never collide).
    func refusesEqual(_ index: SortedIndex, values: [StorageValue]) -> Bool {
        isPrimaryKeyIndex(index) || !values.contains(where: \.isNull)
    }

    /// The error for `values` already held by `holder` in unique `index`: `duplicatePrimaryKey` for the primary
    /// key, `uniquenessViolation` naming the columns, the values and the holder for a uniqueness rule.
    func uniquenessError(
        _ index: SortedIndex, values: [StorageValue], holder: ObjectKey, primaryKey: Bool? = nil
    ) -> StrataError {
        let rendered = values.map(\.description).joined(separator: ", ")
        if primaryKey ?? isPrimaryKeyIndex(index) { return StrataError.duplicatePrimaryKey(type: name, key: rendered) }
        let names = index.spec.columns.map { column($0)?.name ?? "\($0)" }
        return StrataError.uniquenessViolation(
            type: name, properties: names, value: values.count == 1 ? rendered : "(\(rendered))",
            holder: holder.rawValue)
    }
}

import StrataStorage

/// A plain in-memory model of tables for differential tests: the obvious, slow semantics the storage tables must
/// match (values, links nulled, list and set elements dropped and map values nulled on delete, sets kept sorted
/// without repeats, backlinks computed by brute force).
///
/// A value type: copying it is a snapshot, which is how tests model commit and rollback.
package struct TableModel: Equatable, Sendable {
    /// One column of a model table.
    package struct Column: Equatable, Sendable {
        /// The column's name.
        package var name: String
        /// What it holds.
        package var type: ColumnType
        /// The target table name for links and lists of links.
        package var target: String?
        /// Creates a column description.
        package init(name: String, type: ColumnType, target: String? = nil) {
            self.name = name
            self.type = type
            self.target = target
        }
    }

    /// One model table.
    package struct ModelTable: Equatable, Sendable {
        /// Columns in order.
        package var columns: [Column] = []
        /// Objects by key, each a map of column name to value.
        package var objects: [ObjectKey: [String: StorageValue]] = [:]
        /// Creates an empty table.
        package init() {}
    }

    /// Tables by name.
    package var tables: [String: ModelTable] = [:]

    /// An empty model.
    package init() {}

    /// Adds a column, filling existing objects with `fill`.
    package mutating func addColumn(_ column: Column, to table: String, fill: StorageValue) {
        tables[table, default: ModelTable()].columns.append(column)
        for key in tables[table]!.objects.keys { tables[table]!.objects[key]![column.name] = fill }
    }

    /// Removes a column and its values.
    package mutating func removeColumn(_ name: String, from table: String) {
        tables[table]?.columns.removeAll { $0.name == name }
        for key in tables[table]?.objects.keys.map({ $0 }) ?? [] { tables[table]!.objects[key]![name] = nil }
    }

    /// Records an inserted object.
    package mutating func insert(_ key: ObjectKey, into table: String, values: [String: StorageValue]) {
        var stored = values
        for column in tables[table]!.columns { stored[column.name] = stored[column.name].map { normalized($0, column) } }
        tables[table]!.objects[key] = stored
    }

    /// Sets one value.
    package mutating func set(_ key: ObjectKey, in table: String, column: String, to value: StorageValue) {
        let spec = tables[table]!.columns.first { $0.name == column }
        tables[table]!.objects[key]![column] = spec.map { normalized(value, $0) } ?? value
    }

    /// A set column's value sorted (nil first, then by value: strings by their UTF-8 bytes, numbers and links
    /// numerically) without repeats; any other value as is.
    private func normalized(_ value: StorageValue, _ column: Column) -> StorageValue {
        guard case .set = column.type, case .list(let elements) = value else { return value }
        var unique: [StorageValue] = []
        for element in elements where !unique.contains(element) { unique.append(element) }
        // A `set<any>` mixes kinds: its model order is by description (tests compare it without order).
        if column.type == .set(.mixed) { return .list(unique.sorted { $0.description < $1.description }) }
        return .list(unique.sorted(by: Self.precedes))
    }

    /// The element order of the model's sets.
    private static func precedes(_ left: StorageValue, _ right: StorageValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return false
        case (.null, _): return true
        case (_, .null): return false
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.int(let a), .int(let b)): return a < b
        case (.double(let a), .double(let b)): return a < b
        case (.link(let a), .link(let b)): return a.rawValue < b.rawValue
        case (.decimal(let a), .decimal(let b)): return a < b
        default: return left.description < right.description
        }
    }

    /// The value of one column of one object.
    package func value(_ key: ObjectKey, in table: String, column: String) -> StorageValue? {
        tables[table]?.objects[key]?[column]
    }

    /// Deletes an object: every link to it becomes nil, every list drops it; with `tableKey` (the table's key in
    /// the store), every mixed value linking to it (alone, in a list or in a map) becomes null, and every `set<any>`
    /// drops it.
    package mutating func delete(_ key: ObjectKey, from table: String, tableKey: TableKey? = nil) {
        tables[table]!.objects[key] = nil
        if let tableKey {
            let typed = StorageValue.typedLink(tableKey, key)
            for (name, model) in tables {
                for column in model.columns where column.type.isMixed {
                    for source in model.objects.keys {
                        let value = model.objects[source]![column.name]
                        if value == typed { tables[name]!.objects[source]![column.name] = .null }
                        if case .list(let elements)? = value, elements.contains(typed) {
                            // A `set<any>` drops the element; an `[any]` list keeps it as null.
                            let kept: [StorageValue] = column.type == .set(.mixed)
                                ? elements.filter { $0 != typed } : elements.map { $0 == typed ? .null : $0 }
                            tables[name]!.objects[source]![column.name] = .list(kept)
                        }
                        if case .map(let entries)? = value, entries.values.contains(typed) {
                            tables[name]!.objects[source]![column.name] = .map(entries.mapValues { $0 == typed ? .null : $0 })
                        }
                    }
                }
            }
        }
        for (name, model) in tables {
            for column in model.columns where column.target == table {
                for source in model.objects.keys {
                    switch model.objects[source]![column.name] {
                    case .link(let target)? where target == key:
                        tables[name]!.objects[source]![column.name] = .null
                    case .list(let elements)?:
                        tables[name]!.objects[source]![column.name] = .list(elements.filter { $0 != .link(key) })
                    case .map(let entries)?:
                        tables[name]!.objects[source]![column.name] = .map(entries.mapValues { $0 == .link(key) ? .null : $0 })
                    default: break
                    }
                }
            }
        }
    }

    /// For every object linked to through `column` of `origin`: the linking objects, ascending, once per link.
    package func allBacklinks(from origin: String, column: String) -> [ObjectKey: [ObjectKey]] {
        var result: [ObjectKey: [ObjectKey]] = [:]
        for (source, values) in tables[origin]?.objects ?? [:] {
            switch values[column] {
            case .link(let target)?: result[target, default: []].append(source)
            case .list(let elements)?:
                for case .link(let target) in elements { result[target, default: []].append(source) }
            case .map(let entries)?:
                for case .link(let target) in entries.values { result[target, default: []].append(source) }
            default: break
            }
        }
        return result.mapValues { $0.sorted() }
    }

    /// The objects linking to `key` of `table` through `column` of `origin`, ascending, once per link.
    package func backlinks(of key: ObjectKey, in table: String, from origin: String, column: String) -> [ObjectKey] {
        var result: [ObjectKey] = []
        for (source, values) in tables[origin]?.objects ?? [:] {
            switch values[column] {
            case .link(let target)? where target == key: result.append(source)
            case .list(let elements)?: result += elements.filter { $0 == .link(key) }.map { _ in source }
            case .map(let entries)?: result += entries.values.filter { $0 == .link(key) }.map { _ in source }
            default: break
            }
        }
        return result.sorted()
    }
}

/// A small, fast, seedable random generator (SplitMix64) so randomized tests replay exactly.
package struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    /// A generator starting from `seed`.
    package init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

import StrataStorage

/// An index lookup the planner can start from: one comparison of an indexed column of the tested object with
/// constants, and how selective it is likely to be.
struct IndexChoice {
    /// Lower is more selective: a unique equality, then equality, `IN`, a prefix, a closed range, an open range.
    let rank: Int
    let text: String
    /// Reads the index: at most the given number of keys where the lookup can stop early (equality, prefix).
    private let lookup: (Table, Int) throws -> [ObjectKey]

    private init(rank: Int, text: String, lookup: @escaping (Table, Int) throws -> [ObjectKey]) {
        self.rank = rank
        self.text = text
        self.lookup = lookup
    }

    /// A lookup that always reads every key it finds.
    private init(rank: Int, text: String, reading lookup: @escaping (Table) throws -> [ObjectKey]) {
        self.init(rank: rank, text: text) { table, _ in try lookup(table) }
    }

    /// The keys the index returns: a superset of the objects the comparison selects, in key order.
    func keys(in table: Table) throws -> [ObjectKey] {
        Self.sortedWithoutRepeats(try lookup(table, .max))
    }

    /// ``keys(in:)`` when there are at most `limit`; otherwise `nil`, having read only a little more than `limit`
    /// entries where the lookup can stop early (equality, prefix).
    func keys(in table: Table, atMost limit: Int) throws -> [ObjectKey]? {
        let keys = try lookup(table, limit + 1)
        return keys.count > limit ? nil : Self.sortedWithoutRepeats(keys)
    }

    private static func sortedWithoutRepeats(_ keys: [ObjectKey]) -> [ObjectKey] {
        var keys = keys
        keys.sort()
        var previous: ObjectKey?
        keys.removeAll { key in
            defer { previous = key }
            return key == previous
        }
        return keys
    }

    /// The most selective index lookup among the terms of an AND (or the single comparison), if any, with the
    /// terms left to check on each object it returns (`nil` when the lookup alone decides).
    ///
    /// Every lookup is exact (strings compare by UTF-8 bytes in the index as in the evaluator), so the chosen
    /// term is not checked again.
    static func best(for predicate: BoundPredicate, model: ModelBinding, table: Table) -> (IndexChoice, BoundPredicate?)? {
        let terms: [BoundPredicate]
        switch predicate {
        case .and(let parts): terms = parts
        default: terms = [predicate]
        }
        let candidates = terms.enumerated().compactMap { position, term -> (Int, IndexChoice)? in
            guard case .comparison(let comparison) = term, let choice = choice(for: comparison, table: table) else { return nil }
            return (position, choice)
        }
        guard let (position, choice) = candidates.min(by: { $0.1.rank < $1.1.rank }) else { return nil }
        var rest = terms
        rest.remove(at: position)
        switch rest.count {
        case 0: return (choice, nil)
        case 1: return (choice, rest[0])
        default: return (choice, .and(rest))
        }
    }

    private static func choice(for comparison: BoundComparison, table: Table) -> IndexChoice? {
        guard case .path(let path) = comparison.left, let (model, column) = path.rootColumn,
              comparison.options.isEmpty,
              let index = table.index(on: [model.columns[column]])
        else { return nil }
        let kind = path.kind
        let key = index.key
        let text = "index \(model.name).\(comparison.text)"
        switch (comparison.op, comparison.right) {
        case (.equal, .value(let value)):
            guard let stored = storageValue(value, kind) else { return nil }
            return IndexChoice(rank: index.isUnique ? 0 : 1, text: text) { try $0.lookup(key, equal: [stored], limit: $1) }
        case (.in, .list(let values)):
            let stored = values.compactMap { storageValue($0, kind) }
            guard stored.count == values.count else { return nil }
            return IndexChoice(rank: 2, text: text, reading: { try $0.lookup(key, in: stored) })
        case (.beginsWith, .value(.string(let prefix))):
            return IndexChoice(rank: 3, text: text) { try $0.lookup(key, prefix: prefix, limit: $1) }
        case (.between, .list(let bounds)):
            guard kind == .integer || kind == .date, bounds.count == 2,
                  let low = storageValue(bounds[0], kind), let high = storageValue(bounds[1], kind) else { return nil }
            return IndexChoice(rank: 4, text: text, reading: {
                try $0.lookup(key, from: low, lowerInclusive: true, to: high, upperInclusive: true)
            })
        case (.less, .value(let value)), (.lessOrEqual, .value(let value)),
             (.greater, .value(let value)), (.greaterOrEqual, .value(let value)):
            guard kind == .integer || kind == .date, let bound = storageValue(value, kind) else { return nil }
            let op = comparison.op
            return IndexChoice(rank: 5, text: text, reading: { table in
                switch op {
                case .less: return try table.lookup(key, from: nil, lowerInclusive: true, to: bound, upperInclusive: false)
                case .lessOrEqual: return try table.lookup(key, from: nil, lowerInclusive: true, to: bound, upperInclusive: true)
                case .greater: return try table.lookup(key, from: bound, lowerInclusive: false, to: nil, upperInclusive: false)
                default: return try table.lookup(key, from: bound, lowerInclusive: true, to: nil, upperInclusive: false)
                }
            })
        default:
            return nil
        }
    }

    /// A constant as the index stores values of `kind`; `nil` when the index cannot look it up (nil, or an
    /// int column compared with a fraction).
    private static func storageValue(_ value: QueryScalar, _ kind: QueryKind) -> StorageValue? {
        switch (value, kind) {
        case (.int(let number), .integer): return .int(number)
        case (.timestamp(let number), .date): return .timestamp(number)
        case (.string(let text), .string): return .string(text)
        case (.bool(let flag), .bool): return .bool(flag)
        case (.uuid(let uuid), .uuid): return .uuid(uuid)
        default: return nil
        }
    }
}

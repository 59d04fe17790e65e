import StrataStorage

/// An index lookup the planner can start from: one comparison of an indexed column of the tested object with
/// constants, and how selective it is likely to be.
///
/// Planning runs on every evaluation (a lookup in a loop plans thousands of times a second), so a choice is plain
/// data: no closure, and its `explain` text is only built when asked for.
struct IndexChoice {
    /// Lower is more selective: a unique equality, then equality, `IN`, a prefix, a closed range, an open range.
    let rank: Int
    /// What to read from the index.
    private let lookup: Lookup
    /// Which term of the planned predicate the lookup answers: its position among an AND's terms, or `nil` when
    /// the predicate is that lone comparison. ``text(in:)`` finds the comparison there, so planning (on every
    /// evaluation) copies no comparison out of the predicate for a text that is rarely asked for.
    private let term: Int?
    /// For a comparison of a property of an embedded object (`home.city`, `ANY pastHomes.city`, `home.geo.lat`):
    /// the embedded table whose index is read, and the links from the tested object down to it, outermost first.
    /// The index's keys are embedded objects; each has exactly one owner, found through its backlinks.
    private var embedded: (table: Table, hops: [Hop])?
    /// Whether the index is a set's, with one entry per element (`ANY nicknames == "x"`): an object appears once
    /// per matching element, so only an equality's entries count objects.
    private var byElement = false

    /// One link on the way down to an embedded object: the table it points at, the table and column it starts from.
    private struct Hop {
        let target: Table
        let origin: TableKey
        let column: ColumnKey
        /// Whether the column is a single link (not a list or map): its owners then each own one object below.
        let isSingle: Bool
    }

    /// The reads of an index the planner uses.
    private enum Lookup {
        case equal(IndexKey, StorageValue)
        case oneOf(IndexKey, [StorageValue])
        case prefix(IndexKey, String)
        case range(IndexKey, from: StorageValue?, lowerInclusive: Bool, to: StorageValue?, upperInclusive: Bool)
        /// `TEXT`, answered exactly from the column's full-text index.
        case fullText(IndexKey, FullTextQuery)
    }

    /// The lookup of `value` in `index` (an ordered index on the tested object's own column) for a lone
    /// `property == value`, ranked as ``best(for:model:table:)`` ranks it.
    static func equality(_ value: StorageValue, in index: IndexSpec) -> IndexChoice {
        IndexChoice(rank: index.isUnique ? 0 : 1, lookup: .equal(index.key, value), term: nil)
    }

    /// The lookup as `explain` shows it, `index Person.email == "a"`, for the predicate it was chosen for.
    func text(in predicate: BoundPredicate, model: ModelBinding) -> String {
        let comparison: BoundComparison?
        switch (predicate, term) {
        case (.comparison(let lone), nil): comparison = lone
        case (.and(let terms), let position?) where terms.indices.contains(position):
            if case .comparison(let chosen) = terms[position] { comparison = chosen } else { comparison = nil }
        default: comparison = nil
        }
        if case .fullText = lookup { return "full-text index \(model.name).\(comparison?.text ?? predicate.text)" }
        return "index \(model.name).\(comparison?.text ?? predicate.text)"
    }

    /// For a `TEXT` lookup on the tested object's own column: its first `count` keys in key order, or with
    /// `descending` its last `count` from the highest down, read from that end of the full-text index
    /// (`FullTextIndexSearch.keys(first:descending:)`); `nil` for any other lookup.
    func keys(in table: Table, first count: Int, descending: Bool) throws -> [ObjectKey]? {
        guard embedded == nil, !byElement, case .fullText(let index, let query) = lookup else { return nil }
        return try FullTextIndexSearch(table: table, index: index, query: query)
            .keys(first: count, descending: descending)
    }

    /// The keys the index returns: a superset of the objects the comparison selects, in key order.
    func keys(in table: Table) throws -> [ObjectKey] {
        Self.sortedWithoutRepeats(try owners(of: try read(indexed(table), limit: .max)))
    }

    /// The table whose index the lookup reads: the tested object's, or the embedded table it reaches.
    private func indexed(_ table: Table) -> Table { embedded?.table ?? table }

    /// The tested objects that own `keys` (objects of the embedded table), through the hops from the innermost up;
    /// `keys` themselves for a lookup of the tested object's own column.
    ///
    /// Each hop reads the backlinks of all its keys at once, in place (`Table.backlinks(of:from:column:)` over
    /// the keys in ascending order, so most are found in the cluster read for the one before).
    private func owners(of keys: [ObjectKey]) throws -> [ObjectKey] {
        guard let embedded else { return keys }
        var current = keys
        for hop in embedded.hops.reversed() {
            current = try hop.target.backlinks(of: Self.ascending(current), from: hop.origin, column: hop.column)
        }
        return current
    }

    /// `keys` in ascending order (as an equality's entries already are).
    private static func ascending(_ keys: [ObjectKey]) -> [ObjectKey] {
        var previous = Int64.min
        for key in keys {
            guard key.rawValue >= previous else { return keys.sorted() }
            previous = key.rawValue
        }
        return keys
    }

    /// How many tested objects ``keys(in:)`` returns, worked out without listing them where that is exact: the
    /// index's count of its entries for a lookup on the tested object's own column (for a set's index, of an
    /// equality only: one entry per object holding the value); for a comparison inside an object embedded through
    /// one single link (`home.city`), how many of the matching embedded objects that link owns (each owner owns
    /// one, so owners are not repeated): the index's count when that link is the embedded table's only owner
    /// (`Table.isOwnedOnly(through:column:)`), else their backlinks read in place. `nil` when the keys must be
    /// listed.
    func matchCount(in table: Table) throws -> Int? {
        if case .fullText = lookup { return nil }
        guard let embedded else {
            if byElement, !Self.isEquality(lookup) { return nil }
            return try count(in: table)
        }
        guard embedded.hops.count == 1, let hop = embedded.hops.first, hop.isSingle else { return nil }
        // Owned through this one link and nothing else: each matching embedded object is one owner, so the
        // index's count of its entries (two descents) is the answer, with no owner looked up.
        if hop.target.isOwnedOnly(through: hop.origin, column: hop.column), let counted = try count(in: embedded.table) {
            return counted
        }
        let keys = try read(embedded.table, limit: .max)
        return try hop.target.linkedCount(of: Self.ascending(keys), from: hop.origin, column: hop.column)
    }

    private static func isEquality(_ lookup: Lookup) -> Bool {
        if case .equal = lookup { return true }
        return false
    }

    /// ``keys(in:)`` when there are at most `limit`; otherwise `nil`.
    ///
    /// A lookup the planner turns down (`name BEGINSWITH "a"` or `age > 3` on a large table) reads almost nothing:
    /// an equality or prefix lookup reads a few entries first, which answers most lookups that narrow a query, and
    /// when more follow the index counts its matches from its subtree counts (two descents) before reading more;
    /// an `IN` or range lookup, which cannot stop early, is counted first.
    func keys(in table: Table, atMost limit: Int) throws -> [ObjectKey]? {
        // An embedded object has one owner, so the index's entries count the owners it leads to (a list may hold
        // several matching elements of one owner: then fewer owners, never more).
        let table = indexed(table)
        switch lookup {
        case .equal, .prefix:
            let probe = Swift.min(limit + 1, Self.probeSize)
            let first = try read(table, limit: probe)
            // The first few entries answer most lookups that narrow a query.
            if first.count < probe || probe > limit {
                return first.count > limit ? nil : Self.sortedWithoutRepeats(try owners(of: first))
            }
        case .oneOf, .range:
            break
        case .fullText:
            let keys = try read(table, limit: .max)
            return keys.count > limit ? nil : keys
        }
        if let count = try count(in: table), count > limit { return nil }
        let keys = try read(table, limit: limit + 1)
        return keys.count > limit ? nil : Self.sortedWithoutRepeats(try owners(of: keys))
    }

    /// How many entries ``keys(in:atMost:)`` reads before asking the index for a count.
    static let probeSize = 256

    /// How many entries the lookup returns, counted by the index of `table` without reading them; `nil` for an
    /// index that cannot count.
    private func count(in table: Table) throws -> Int? {
        switch lookup {
        case .equal(let index, let value): return try table.lookupCount(index, equal: [value])
        case .oneOf(let index, let values): return try table.lookupCount(index, in: values)
        case .prefix(let index, let prefix): return try table.lookupCount(index, prefix: prefix)
        case .range(let index, let lower, let lowerInclusive, let upper, let upperInclusive):
            return try table.lookupCount(
                index, from: lower, lowerInclusive: lowerInclusive, to: upper, upperInclusive: upperInclusive)
        case .fullText:
            return nil
        }
    }

    /// At most `limit` keys where the lookup can stop early (equality, prefix); every key otherwise.
    private func read(_ table: Table, limit: Int) throws -> [ObjectKey] {
        switch lookup {
        case .equal(let index, let value): return try table.lookup(index, equalTo: value, limit: limit)
        case .oneOf(let index, let values): return try table.lookup(index, in: values)
        case .prefix(let index, let prefix): return try table.lookup(index, prefix: prefix, limit: limit)
        case .range(let index, let lower, let lowerInclusive, let upper, let upperInclusive):
            return try table.lookup(
                index, from: lower, lowerInclusive: lowerInclusive, to: upper, upperInclusive: upperInclusive)
        case .fullText(let index, let query):
            return try FullTextIndexSearch(table: table, index: index, query: query).keys()
        }
    }

    /// `keys` in ascending order, each once (what ``keys(in:)`` returns for what the index read).
    static func sortedWithoutRepeats(_ keys: [ObjectKey]) -> [ObjectKey] {
        guard keys.count > 1 else { return keys }
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
        guard case .and(let terms) = predicate else {
            guard case .comparison(let comparison) = predicate,
                let choice = choice(for: comparison, term: nil, table: table)
            else {
                return nil
            }
            return (choice, nil)
        }
        var best: (position: Int, choice: IndexChoice)?
        for (position, term) in terms.enumerated() {
            guard case .comparison(let comparison) = term,
                let choice = choice(for: comparison, term: position, table: table)
            else { continue }
            if best.map({ choice.rank < $0.choice.rank }) ?? true { best = (position, choice) }
        }
        guard let best else { return nil }
        var rest = terms
        rest.remove(at: best.position)
        switch rest.count {
        case 0: return (best.choice, nil)
        case 1: return (best.choice, rest[0])
        default: return (best.choice, .and(rest))
        }
    }

    private static func choice(for comparison: BoundComparison, term: Int?, table: Table) -> IndexChoice? {
        if comparison.op == .text {
            // Exact: the index cuts and folds text as the evaluator's `FullTextQuery` does.
            guard case .path(let path) = comparison.left, let (model, column) = path.rootColumn,
                let index = table.fullTextIndex(on: model.columns[column])
            else { return nil }
            return fullTextChoice(comparison, index: index.key, term: term)
        }
        guard case .path(let path) = comparison.left, comparison.options.isEmpty else { return nil }
        let model: ModelBinding
        let column: Int
        var embedded: (table: Table, hops: [Hop])?
        var byElement = false
        if let own = path.rootColumn {
            (model, column) = own
        } else if let set = setColumn(path, comparison: comparison) {
            (model, column, byElement) = (set.model, set.column, true)
        } else if let reached = embeddedColumn(path, comparison: comparison, table: table) {
            (model, column, embedded) = (reached.model, reached.column, (reached.table, reached.hops))
        } else {
            return nil
        }
        guard let index = (embedded?.table ?? table).index(on: [model.columns[column]]),
            let (rank, lookup) = lookup(comparison, kind: path.kind, index: index)
        else { return nil }
        return IndexChoice(rank: rank, lookup: lookup, term: term, embedded: embedded, byElement: byElement)
    }

    /// The `TEXT` comparison's lookup in the full-text index `index`; `nil` when its query has no full-text form.
    private static func fullTextChoice(_ comparison: BoundComparison, index: IndexKey, term: Int?) -> IndexChoice? {
        guard let query = comparison.matcher?.fullText else { return nil }
        return IndexChoice(rank: 1, lookup: .fullText(index, query), term: term)
    }

    /// What `comparison` (of a column of `kind` that `index` indexes) reads from the index, and how selective
    /// that is; `nil` when the index cannot answer it (another operator, a nil, an empty prefix, a NaN).
    ///
    /// The only part of planning that depends on the comparison's constants: a cached plan
    /// (``CachedPlan``) resolves the column and finds its index once, and runs this on each call's arguments.
    private static func lookup(
        _ comparison: BoundComparison, kind: QueryKind, index: IndexSpec
    ) -> (rank: Int, lookup: Lookup)? {
        let key = index.key
        switch (comparison.op, comparison.right) {
        case (.equal, .value(let value)) where kind == .mixed:
            // A mixed value equals a number of another kind with the same value: each kind is its own entry.
            guard let stored = mixedCandidates(value) else { return nil }
            return stored.count == 1 ? (1, .equal(key, stored[0])) : (2, .oneOf(key, stored))
        case (.in, .list(let values)) where kind == .mixed:
            let stored = values.compactMap(mixedCandidates)
            guard stored.count == values.count else { return nil }
            return (2, .oneOf(key, stored.flatMap { $0 }))
        case (.equal, .value(let value)):
            guard let stored = storageValue(value, kind) else { return nil }
            return (index.isUnique ? 0 : 1, .equal(key, stored))
        case (.in, .list(let values)):
            let stored = values.compactMap { storageValue($0, kind) }
            guard stored.count == values.count else { return nil }
            return (2, .oneOf(key, stored))
        case (.beginsWith, .value(.string(let prefix))) where !prefix.isEmpty && kind == .string:
            return (3, .prefix(key, prefix))
        case (.between, .list(let bounds)):
            guard Self.hasOrderedIndex(kind), bounds.count == 2,
                  let low = storageValue(bounds[0], kind), let high = storageValue(bounds[1], kind) else { return nil }
            return (4, .range(key, from: low, lowerInclusive: true, to: high, upperInclusive: true))
        case (.less, .value(let value)), (.lessOrEqual, .value(let value)),
             (.greater, .value(let value)), (.greaterOrEqual, .value(let value)):
            guard Self.hasOrderedIndex(kind), let bound = storageValue(value, kind) else { return nil }
            switch comparison.op {
            case .less: return (5, .range(key, from: nil, lowerInclusive: true, to: bound, upperInclusive: false))
            case .lessOrEqual: return (5, .range(key, from: nil, lowerInclusive: true, to: bound, upperInclusive: true))
            case .greater: return (5, .range(key, from: bound, lowerInclusive: false, to: nil, upperInclusive: false))
            default: return (5, .range(key, from: bound, lowerInclusive: true, to: nil, upperInclusive: false))
            }
        default:
            return nil
        }
    }

    // MARK: - Cached plans

    /// A term of a predicate whose column has an index, found once per shape of predicate and set of indexes
    /// (``CachedPlan``): which term, and the index that may answer it.
    struct IndexedTerm {
        /// The term's position among an AND's terms, or `nil` for a lone comparison.
        let term: Int?
        /// The index on the term's column: a full-text index for a `TEXT` comparison, an ordered one otherwise.
        let index: IndexSpec
    }

    /// The terms of `predicate` whose column has an index in `table`, in term order; `nil` when the predicate
    /// has a comparison planning cannot answer that way for every call of its shape (through an embedded object
    /// or a set, whose indexes live elsewhere or answer by element), which is then planned in full every time.
    ///
    /// Depends only on the predicate's shape (its paths and operators, never its constants) and the table's
    /// indexes, so it holds for every call of a cached shape while those indexes stay.
    static func indexedTerms(of predicate: BoundPredicate, table: Table) -> [IndexedTerm]? {
        guard case .and(let terms) = predicate else {
            guard case .comparison(let comparison) = predicate else { return [] }
            return indexedTerm(comparison, term: nil, table: table).map { $0.map { [$0] } ?? [] }
        }
        var found: [IndexedTerm] = []
        for (position, term) in terms.enumerated() {
            guard case .comparison(let comparison) = term else { continue }
            guard let indexed = indexedTerm(comparison, term: position, table: table) else { return nil }
            if let indexed { found.append(indexed) }
        }
        return found
    }

    /// The index `comparison` may be looked up in: `.some(nil)` when none can answer it, `nil` when whether one
    /// can depends on more than the shape (see ``indexedTerms(of:table:)``).
    private static func indexedTerm(_ comparison: BoundComparison, term: Int?, table: Table) -> IndexedTerm?? {
        guard case .path(let path) = comparison.left else { return .some(nil) }
        if comparison.op == .text {
            guard let (model, column) = path.rootColumn, let index = table.fullTextIndex(on: model.columns[column])
            else { return .some(nil) }
            return IndexedTerm(term: term, index: index)
        }
        guard comparison.options.isEmpty else { return .some(nil) }
        guard let (model, column) = path.rootColumn else {
            let reachesElsewhere = setColumn(path, comparison: comparison) != nil
                || (path.root == .object && path.steps.count > 1 && comparison.quantifier == .anyElement)
            return reachesElsewhere ? nil : .some(nil)
        }
        guard let index = table.index(on: [model.columns[column]]) else { return .some(nil) }
        return IndexedTerm(term: term, index: index)
    }

    /// ``best(for:model:table:)`` over the terms ``indexedTerms(of:table:)`` found for this predicate's shape:
    /// the same choice, with no path resolved and no index looked up again. The outer `nil` says that the
    /// predicate does not have that shape after all (a term moved, or names another column): plan it in full.
    static func best(
        for predicate: BoundPredicate, indexedTerms: [IndexedTerm]
    ) -> (IndexChoice, BoundPredicate?)?? {
        var best: (position: Int?, choice: IndexChoice)?
        for indexed in indexedTerms {
            let comparison: BoundComparison
            switch (predicate, indexed.term) {
            case (.comparison(let lone), nil): comparison = lone
            case (.and(let terms), let position?) where terms.indices.contains(position):
                guard case .comparison(let chosen) = terms[position] else { return nil }
                comparison = chosen
            default: return nil
            }
            guard case .path(let path) = comparison.left, let (model, column) = path.rootColumn,
                indexed.index.columns.count == 1, indexed.index.columns[0] == model.columns[column]
            else { return nil }
            let choice: IndexChoice?
            if comparison.op == .text {
                choice = fullTextChoice(comparison, index: indexed.index.key, term: indexed.term)
            } else if let (rank, lookup) = lookup(comparison, kind: path.kind, index: indexed.index) {
                choice = IndexChoice(rank: rank, lookup: lookup, term: indexed.term)
            } else {
                choice = nil
            }
            guard let choice else { continue }
            if best.map({ choice.rank < $0.choice.rank }) ?? true { best = (indexed.term, choice) }
        }
        guard let best else { return .some(nil) }
        guard case .and(let terms) = predicate, let position = best.position else { return (best.choice, nil) }
        var rest = terms
        rest.remove(at: position)
        switch rest.count {
        case 0: return (best.choice, nil)
        case 1: return (best.choice, rest[0])
        default: return (best.choice, .and(rest))
        }
    }

    /// The set property of the tested object that `ANY set …` (and `constant IN set`) compares, whose index (one
    /// entry per element, `indexed: true` on a set) lists each object under every element it holds: the objects
    /// with a matching element are the lookup's keys, without repeats. `nil` for any other path, and for `ALL` and
    /// `NONE`, which an index of matching elements cannot answer.
    private static func setColumn(
        _ path: BoundPath, comparison: BoundComparison
    ) -> (model: ModelBinding, column: Int)? {
        guard path.root == .object, path.steps.count == 1, comparison.quantifier == .anyElement,
            case .property(let model, let column) = path.steps[0], case .set = model.description.properties[column].type
        else { return nil }
        return (model, column)
    }

    /// The property a path reads inside embedded objects (`home.city`, `ANY pastHomes.city`, `home.geo.lat`): its
    /// model and column, the embedded table holding it, and the links down to it. `nil` for any other path, and
    /// for `ALL` and `NONE`, which an index of matching elements cannot answer.
    private static func embeddedColumn(
        _ path: BoundPath, comparison: BoundComparison, table: Table
    ) -> (model: ModelBinding, column: Int, table: Table, hops: [Hop])? {
        guard path.root == .object, path.steps.count > 1, comparison.quantifier == .anyElement else { return nil }
        var hops: [Hop] = []
        var current = table
        for step in path.steps.dropLast() {
            guard case .property(let model, let column) = step, let target = model.linkTargets[column],
                target.isEmbedded, let next = current.linkedTable(model.columns[column])
            else { return nil }
            let isSingle = current.column(model.columns[column])?.type == .value(.link)
            hops.append(Hop(target: next, origin: current.key, column: model.columns[column], isSingle: isSingle))
            current = next
        }
        guard case .property(let model, let column)? = path.steps.last, model.linkTargets[column] == nil else {
            return nil
        }
        return (model, column, current, hops)
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
        case (.decimal(let number), .decimal): return number.isNaN ? nil : .decimal(number)
        case (.objectId(let id), .objectId): return .objectId(id)
        default: return nil
        }
    }

    /// Whether the index of a column of `kind` orders values as a range comparison does (ints, dates, decimals and
    /// ObjectIds; a mixed index orders by kind first, so its ranges are scanned).
    private static func hasOrderedIndex(_ kind: QueryKind) -> Bool {
        kind == .integer || kind == .date || kind == .decimal || kind == .objectId
    }

    /// The stored values a mixed column equal to `value` may hold: a number as an int, a double and a decimal
    /// where it is exactly one; `nil` for what the index cannot look up (nil, a NaN).
    private static func mixedCandidates(_ value: QueryScalar) -> [StorageValue]? {
        switch value {
        case .null: return nil
        case .bool(let flag): return [.bool(flag)]
        case .string(let text): return [.string(text)]
        case .data(let bytes): return [.binary(bytes)]
        case .timestamp(let number): return [.timestamp(number)]
        case .uuid(let uuid): return [.uuid(uuid)]
        case .objectId(let id): return [.objectId(id)]
        case .typedObject(let table, let key): return [.typedLink(table, key)]
        case .object: return nil
        case .int, .double, .decimal:
            // Exactly the stored numbers `QueryScalar.equal` finds equal to `value`, one per kind.
            guard let decimal = value.decimalValue, let number = value.number else { return nil }
            var candidates: [StorageValue] = [.decimal(decimal)]
            if QueryScalar.equal(.double(number), value) {
                candidates.append(.double(number))
                if Double(Float(number)) == number { candidates.append(.float(Float(number))) }
            }
            let integer: Int64?
            switch value {
            case .int(let exact): integer = exact
            case .double(let double): integer = Int64(exactly: double)
            default: integer = Int64("\(decimal)")
            }
            if let integer, QueryScalar.equal(.int(integer), value) { candidates.append(.int(integer)) }
            return candidates
        }
    }
}

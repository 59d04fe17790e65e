import StrataStorage

/// A predicate compiled for a scan over a table's clusters: comparisons of the tested object's own columns with
/// constants become conditions on the column views (one `RowMask` per cluster, combined with AND/OR/NOT); the
/// rest is checked object by object, only on the rows the column conditions leave.
indirect enum ColumnScan {
    case constant(Bool)
    case not(ColumnScan)
    case and([ColumnScan])
    case or([ColumnScan])
    /// An int, timestamp column compared with an integer (nulls handled by the column view and `nullMatches`).
    case int(column: ColumnKey, comparison: ScanComparison, operand: Int64, nullMatches: Bool, text: String)
    /// An int or timestamp column within `low...high` (nulls never match): both bounds of a range tested in one
    /// pass over the column.
    case intRange(column: ColumnKey, low: Int64, high: Int64, text: String)
    /// An int or timestamp column equal to one of `values` (`IN {…}`; nulls never match): one hash lookup per row,
    /// however long the list.
    case intSet(column: ColumnKey, values: Set<Int64>, text: String)
    /// A string column equal, byte for byte, to one of `values` (`IN {…}` without options; nulls never match).
    case stringSet(column: ColumnKey, values: Set<[UInt8]>, text: String)
    /// A float or double column compared with a number.
    case double(column: ColumnKey, comparison: ScanComparison, operand: Double, nullMatches: Bool, text: String)
    /// A bool column equal to `value`.
    case bool(column: ColumnKey, value: Bool, nullMatches: Bool, text: String)
    /// A string column against a constant string.
    case string(column: ColumnKey, matcher: StringMatcher, nullMatches: Bool, text: String)
    /// A column that is (or is not) nil, read from its null bitmap.
    case null(column: ColumnKey, kind: QueryKind, isNull: Bool, text: String)
    /// Anything else, evaluated per object.
    case perObject(BoundPredicate)
    /// `ANY set == constant` (or, `negated`, `NONE set == constant`) over a set column: each object's encoded set
    /// binary-searched in place for the probe, no element decoded.
    case setContains(column: ColumnKey, probe: SetProbe, negated: Bool, text: String)
    /// `collection.@count` compared with an integer, over a list, set or map column of the tested object: each
    /// object's count read from its encoded collection's header, no element decoded.
    case collectionCount(column: ColumnKey, comparison: ScanComparison, operand: Int64, text: String)
    /// A comparison through a to-one link: the linked objects it matches found by a scan of their table, once per
    /// evaluation, then each row's link tested against them (`LinkScan`).
    case throughLink(LinkScan)

    /// Compiles `predicate` for a scan of `model`'s table.
    init(_ predicate: BoundPredicate) {
        self = predicate.fold(Compiler())
    }

    /// Compiles each node: comparisons the columns answer become column conditions, the others per-object checks.
    private struct Compiler: BoundPredicateVisitor {
        func constant(_ value: Bool) -> ColumnScan { .constant(value) }

        func comparison(_ comparison: BoundComparison) -> ColumnScan {
            ColumnScan.compile(comparison) ?? .perObject(.comparison(comparison))
        }

        func not(_ inner: FoldedTerm<Self>) -> ColumnScan { .not(inner.result()) }

        func and(_ terms: FoldedTerms<Self>) -> ColumnScan {
            // Column conditions first: object-by-object checks then only see the rows they leave.
            let compiled = ColumnScan.mergingIntRanges(terms.results())
            return .and(compiled.filter { !$0.isPerObject } + compiled.filter(\.isPerObject))
        }

        func or(_ terms: FoldedTerms<Self>) -> ColumnScan { .or(ColumnScan.mergingIntEqualities(terms.results())) }
    }

    var isPerObject: Bool {
        if case .perObject = self { return true }
        return false
    }

    /// Whether every part runs on columns (no object is read one by one).
    var isColumnOnly: Bool {
        switch self {
        case .perObject: return false
        case .not(let inner): return inner.isColumnOnly
        case .and(let terms), .or(let terms): return terms.allSatisfy(\.isColumnOnly)
        default: return true
        }
    }

    private static func compile(_ comparison: BoundComparison) -> ColumnScan? {
        if let membership = setMembership(comparison) { return membership }
        if let count = collectionCount(comparison) { return count }
        if let through = LinkScan.compile(comparison) { return .throughLink(through) }
        guard case .path(let path) = comparison.left, let (model, column) = path.rootColumn else { return nil }
        let property = model.description.properties[column]
        let columnKey = model.columns[column]
        let nullable = property.type.isOptional
        let text = comparison.text
        switch comparison.right {
        case .list(let values) where comparison.op == .in:
            if let set = setScan(values, kind: path.kind, options: comparison.options, column: columnKey, text: text) {
                return set
            }
            var single = comparison
            single.members = nil
            single.op = .equal
            let parts = values.map { value -> ColumnScan? in
                single.right = .value(value)
                single.matcher = nil
                if case .string(let operand) = value { single.matcher = StringMatcher(.equal, operand, options: comparison.options) }
                return compile(single)
            }
            guard parts.allSatisfy({ $0 != nil }) else { return nil }
            return .or(parts.compactMap { $0 })
        case .list(let bounds) where comparison.op == .between && bounds.count == 2:
            var low = comparison, high = comparison
            low.op = .greaterOrEqual
            low.right = .value(bounds[0])
            high.op = .lessOrEqual
            high.right = .value(bounds[1])
            guard let lower = compile(low), let upper = compile(high) else { return nil }
            let merged = mergingIntRanges([lower, upper])
            return merged.count == 1 ? merged[0] : .and(merged)
        case .value(let operand):
            if operand.isNull {
                guard comparison.op == .equal || comparison.op == .notEqual else { return .constant(false) }
                switch path.kind {
                case .object, .uuid, .data, .decimal, .objectId, .mixed: return nil
                default:
                    return .null(column: columnKey, kind: path.kind, isNull: comparison.op == .equal, text: text)
                }
            }
            switch (path.kind, operand) {
            case (.integer, .int(let number)), (.date, .timestamp(let number)):
                guard let scan = ScanComparison(comparison.op) else { return nil }
                return .int(column: columnKey, comparison: scan, operand: number,
                            nullMatches: nullable && comparison.op == .notEqual, text: text)
            case (.floating, .double(let number)):
                guard let scan = ScanComparison(comparison.op) else { return nil }
                return .double(column: columnKey, comparison: scan, operand: number,
                               nullMatches: nullable && comparison.op == .notEqual, text: text)
            case (.bool, .bool(let value)):
                switch comparison.op {
                case .equal: return .bool(column: columnKey, value: value, nullMatches: false, text: text)
                case .notEqual: return .bool(column: columnKey, value: !value, nullMatches: nullable, text: text)
                default: return nil
                }
            case (.string, .string(let operand)):
                let matcher = comparison.matcher ?? StringMatcher(comparison.op, operand, options: comparison.options)
                switch comparison.op {
                case .equal, .notEqual, .beginsWith, .endsWith, .contains, .like, .less, .lessOrEqual, .greater,
                     .greaterOrEqual, .text:
                    return .string(column: columnKey, matcher: matcher,
                                   nullMatches: nullable && comparison.op == .notEqual, text: text)
                default: return nil
                }
            default: return nil
            }
        default: return nil
        }
    }

    /// `ANY set == constant` (also `constant IN set`) and `NONE set == constant` over a set column of the tested
    /// object whose elements compare in place: strings and data without options, ints, dates and bools. `nil` for
    /// anything else (other kinds, `ALL`, nil, options), which stays an object-by-object check.
    private static func setMembership(_ comparison: BoundComparison) -> ColumnScan? {
        guard case .path(let path) = comparison.left, path.root == .object, path.steps.count == 1,
            case .property(let model, let column) = path.steps[0],
            case .set = model.description.properties[column].type,
            comparison.op == .equal, comparison.options.isEmpty,
            comparison.quantifier == .anyElement || comparison.quantifier == .noElement,
            case .value(let operand) = comparison.right
        else { return nil }
        let probe: SetProbe?
        switch (path.kind, operand) {
        case (.string, .string(let text)): probe = SetProbe(.string(text), kind: .string)
        case (.data, .data(let bytes)): probe = SetProbe(.binary(bytes), kind: .binary)
        case (.integer, .int(let number)): probe = SetProbe(.int(number), kind: .int)
        case (.date, .timestamp(let number)): probe = SetProbe(.timestamp(number), kind: .timestamp)
        case (.bool, .bool(let flag)): probe = SetProbe(.bool(flag), kind: .bool)
        default: return nil
        }
        guard let probe else { return nil }
        return .setContains(column: model.columns[column], probe: probe,
                            negated: comparison.quantifier == .noElement, text: comparison.text)
    }

    /// `collection.@count <op> n` over a list, set or map property of the tested object, with an integer `n`;
    /// `nil` for anything else (an inverse, a path through a link, another operand), which stays an
    /// object-by-object check. The count the header holds is the evaluator's: every element, nulls included.
    private static func collectionCount(_ comparison: BoundComparison) -> ColumnScan? {
        guard case .aggregate(let path, .count, nil) = comparison.left, path.root == .object,
            path.steps.count == 1, case .property(let model, let column) = path.steps[0],
            comparison.quantifier != .noElement, case .value(.int(let operand)) = comparison.right,
            let scan = ScanComparison(comparison.op)
        else { return nil }
        switch model.description.properties[column].type {
        case .list, .set, .map:
            return .collectionCount(
                column: model.columns[column], comparison: scan, operand: operand, text: comparison.text)
        default: return nil
        }
    }

    /// `IN` a list of ints (timestamps for a date) or, without options, of strings, as one hash lookup per row;
    /// `nil` for any other list (a `nil` or a fraction among ints, options), which compiles to one condition per
    /// value.
    private static func setScan(
        _ values: [QueryScalar], kind: QueryKind, options: StringComparisonOptions, column: ColumnKey, text: String
    ) -> ColumnScan? {
        switch kind {
        case .integer, .date:
            var numbers = Set<Int64>()
            for value in values {
                switch (kind, value) {
                case (.integer, .int(let number)), (.date, .timestamp(let number)): numbers.insert(number)
                default: return nil
                }
            }
            return .intSet(column: column, values: numbers, text: text)
        case .string where options.isEmpty:
            var strings = Set<[UInt8]>()
            for value in values {
                guard case .string(let string) = value else { return nil }
                strings.insert(Array(string.utf8))
            }
            return .stringSet(column: column, values: strings, text: text)
        default:
            return nil
        }
    }

    /// `terms` (of an AND) with the lower and upper bounds of each int column merged into one `intRange` at the
    /// place of the column's first bound: `age >= 20 AND age < 30` reads the ages once, not twice.
    private static func mergingIntRanges(_ terms: [ColumnScan]) -> [ColumnScan] {
        var bounds: [ColumnKey: IntBounds] = [:]
        for term in terms {
            guard case .int(let column, let comparison, let operand, false, let text) = term,
                let (low, high) = comparison.closedRange(operand)
            else { continue }
            // Updated in place: a chain of 100,000 bounds on one column must not copy its texts at each bound.
            bounds[column, default: IntBounds()].add(low: low, high: high, text: text)
        }
        var merged: [ColumnScan] = []
        var placed: Set<ColumnKey> = []
        for term in terms {
            guard case .int(let column, let comparison, let operand, false, _) = term, comparison.closedRange(operand) != nil,
                let range = bounds[column], range.count > 1
            else {
                merged.append(term)
                continue
            }
            guard placed.insert(column).inserted else { continue }
            merged.append(.intRange(column: column, low: range.low, high: range.high, text: range.texts.joined(separator: " AND ")))
        }
        return merged
    }

    /// `terms` (of an OR) with the equalities of each int column merged into one `intSet` at the place of the
    /// column's first equality: `age == 1 OR age == 2 OR …` reads the ages once, not once per value.
    private static func mergingIntEqualities(_ terms: [ColumnScan]) -> [ColumnScan] {
        var equalities: [ColumnKey: (values: Set<Int64>, texts: [String])] = [:]
        for term in terms {
            guard case .int(let column, .equal, let operand, false, let text) = term else { continue }
            equalities[column, default: ([], [])].values.insert(operand)
            equalities[column, default: ([], [])].texts.append(text)
        }
        var merged: [ColumnScan] = []
        var placed: Set<ColumnKey> = []
        for term in terms {
            guard case .int(let column, .equal, _, false, _) = term, let equal = equalities[column], equal.texts.count > 1
            else {
                merged.append(term)
                continue
            }
            guard placed.insert(column).inserted else { continue }
            merged.append(.intSet(column: column, values: equal.values, text: equal.texts.joined(separator: " OR ")))
        }
        return merged
    }

    /// The bounds an AND puts on one int column, intersected.
    private struct IntBounds {
        var low = Int64.min
        var high = Int64.max
        var texts: [String] = []
        var count: Int { texts.count }

        mutating func add(low: Int64, high: Int64, text: String) {
            self.low = max(self.low, low)
            self.high = min(self.high, high)
            texts.append(text)
        }
    }

    // MARK: - Running

    /// The rows of `cluster` that satisfy the scan, among all of its rows (what a count, a loop or an aggregate
    /// over a whole table scans): a column condition's mask as the column view gives it, and an AND's first term
    /// so when it is one, without a mask of every row to intersect with; the rest as ``rows(of:within:evaluator:)``.
    func rows(of cluster: ScannedCluster, evaluator: ObjectEvaluator) throws -> RowMask {
        if let mask = try columnMask(of: cluster) { return mask }
        guard case .and(let terms) = self, let first = terms.first, var result = try first.columnMask(of: cluster) else {
            return try rows(of: cluster, within: RowMask(count: cluster.count, filled: true), evaluator: evaluator)
        }
        for term in terms.dropFirst() {
            if result.isEmpty { break }
            result = try term.rows(of: cluster, within: result, evaluator: evaluator)
        }
        return result
    }

    /// The rows of `cluster` a comparison of one int, double or bool column with a constant selects, as the column
    /// view gives them (with the null rows when nil matches); `nil` for every other condition.
    private func columnMask(of cluster: ScannedCluster) throws -> RowMask? {
        switch self {
        case .int(let column, let comparison, let operand, let nullMatches, _):
            let values = try cluster.intColumn(column)
            return Self.adding(nullMatches ? values.nulls : nil, to: values.matches(comparison, operand))
        case .intRange(let column, let low, let high, _):
            return try cluster.intColumn(column).matches(from: low, through: high)
        case .double(let column, let comparison, let operand, let nullMatches, _):
            let values = try cluster.doubleColumn(column)
            return Self.adding(nullMatches ? values.nulls : nil, to: values.matches(comparison, operand))
        case .bool(let column, let value, let nullMatches, _):
            let values = try cluster.boolColumn(column)
            return Self.adding(nullMatches ? values.nulls : nil, to: values.matches(value))
        default:
            return nil
        }
    }

    /// The rows of `cluster`, among `within`, that satisfy the scan.
    func rows(of cluster: ScannedCluster, within: RowMask, evaluator: ObjectEvaluator) throws -> RowMask {
        switch self {
        case .constant(let value):
            return value ? within : RowMask(count: within.count)
        case .not(let inner):
            var result = within
            result.subtract(try inner.rows(of: cluster, within: within, evaluator: evaluator))
            return result
        case .and(let terms):
            var result = within
            for term in terms {
                if result.isEmpty { break }
                result = try term.rows(of: cluster, within: result, evaluator: evaluator)
            }
            return result
        case .or(let terms):
            var result = RowMask(count: within.count)
            var remaining = within
            for term in terms {
                let hits = try term.rows(of: cluster, within: remaining, evaluator: evaluator)
                result.formUnion(hits)
                remaining.subtract(hits)
            }
            return result
        case .int, .intRange, .double, .bool:
            // A column condition: its own mask (the whole-cluster scan's too), kept to `within`.
            guard var mask = try columnMask(of: cluster) else {
                preconditionFailure("a column condition without a mask")
            }
            mask.formIntersection(within)
            return mask
        case .intSet(let column, let values, _):
            let view = try cluster.intColumn(column)
            var mask = RowMask(count: within.count)
            within.forEachSetRow { row in
                if !view.nulls.isNull(row), values.contains(view[row]) { mask.set(row) }
            }
            return mask
        case .stringSet(let column, let values, _):
            let view = try cluster.stringColumn(column)
            var mask = RowMask(count: within.count)
            try view.forEachValue(within: within) { row, bytes in
                if values.contains(Array(bytes)) { mask.set(row) }
            }
            return mask
        case .string(let column, let matcher, let nullMatches, _):
            let values = try cluster.stringColumn(column)
            var mask: RowMask
            if matcher.worksOnRawBytes {
                mask = try matcher.rows(of: values, within: within)
            } else {
                mask = RowMask(count: within.count)
                try values.forEachValue(within: within) { row, bytes in
                    if matcher.matches(String(decoding: bytes, as: UTF8.self)) { mask.set(row) }
                }
            }
            if nullMatches, values.nulls.hasNulls {
                var nulls = values.nulls.mask
                nulls.formIntersection(within)
                mask.formUnion(nulls)
            }
            return mask
        case .null(let column, let kind, let isNull, _):
            let nulls: NullBitmap
            switch kind {
            case .integer, .date: nulls = try cluster.intColumn(column).nulls
            case .floating: nulls = try cluster.doubleColumn(column).nulls
            case .bool: nulls = try cluster.boolColumn(column).nulls
            default: nulls = try cluster.stringColumn(column).nulls
            }
            var mask = nulls.mask
            if !isNull { mask.invert() }
            mask.formIntersection(within)
            return mask
        case .perObject(let predicate):
            var mask = RowMask(count: within.count)
            try within.forEachSetRow { row in
                if try evaluator.matches(predicate, key: cluster.key(at: row)) { mask.set(row) }
            }
            return mask
        case .setContains(let column, let probe, let negated, _):
            let hits = try cluster.setColumn(column).rows(containing: probe, within: within)
            guard negated else { return hits }
            var result = within
            result.subtract(hits)
            return result
        case .collectionCount(let column, let comparison, let operand, _):
            return try cluster.collectionColumn(column).rows(countSatisfying: comparison, operand, within: within)
        case .throughLink(let scan):
            return try scan.rows(of: cluster, within: within, evaluator: evaluator)
        }
    }

    /// Finds, through `evaluator`, what the scan reads beyond the scanned table (the linked objects a comparison
    /// through a link matches), so that a scan run a cluster at a time later (``IncrementalScan``) reads the
    /// version `evaluator`'s database reads now.
    func prepare(_ evaluator: ObjectEvaluator) throws {
        switch self {
        case .not(let inner): try inner.prepare(evaluator)
        case .and(let terms), .or(let terms): for term in terms { try term.prepare(evaluator) }
        case .throughLink(let scan): _ = try scan.targetKeys(evaluator)
        default: break
        }
    }

    /// The scan as text for `explain`: object-by-object parts are marked.
    var text: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner): return "NOT \(inner.parenthesized)"
        case .and(let terms): return terms.map(\.parenthesized).joined(separator: " AND ")
        case .or(let terms): return terms.map(\.parenthesized).joined(separator: " OR ")
        case .int(_, _, _, _, let text), .intRange(_, _, _, let text), .intSet(_, _, let text),
             .stringSet(_, _, let text), .double(_, _, _, _, let text), .bool(_, _, _, let text),
             .string(_, _, _, let text), .null(_, _, _, let text), .setContains(_, _, _, let text),
             .collectionCount(_, _, _, let text):
            return text
        case .throughLink(let scan): return scan.comparison.text
        case .perObject(let predicate): return "per object: \(predicate.text)"
        }
    }

    private var parenthesized: String {
        switch self {
        case .and, .or, .perObject: return "(\(text))"
        default: return text
        }
    }

    /// `mask` with the null rows of `nulls` added (for a comparison that nil matches). Takes the mask it changes: a
    /// borrowed one was copied before its first change.
    private static func adding(_ nulls: NullBitmap?, to mask: consuming RowMask) -> RowMask {
        if let nulls, nulls.hasNulls { mask.formUnion(nulls.mask) }
        return mask
    }
}

extension ScanComparison {
    /// The values `value <self> operand` admits as one closed range, for the four ordering comparisons; `nil` for
    /// the others. An empty range (`< Int64.min`) comes back with its low bound above its high one.
    func closedRange(_ operand: Int64) -> (low: Int64, high: Int64)? {
        switch self {
        case .greater: return operand == .max ? (.max, .min) : (operand + 1, .max)
        case .greaterOrEqual: return (operand, .max)
        case .less: return operand == .min ? (.max, .min) : (.min, operand - 1)
        case .lessOrEqual: return (.min, operand)
        case .equal, .notEqual: return nil
        }
    }

    /// The scan comparison of an ordering operator, or `nil` for the others.
    init?(_ op: ComparisonOperator) {
        switch op {
        case .equal: self = .equal
        case .notEqual: self = .notEqual
        case .less: self = .less
        case .lessOrEqual: self = .lessOrEqual
        case .greater: self = .greater
        case .greaterOrEqual: self = .greaterOrEqual
        default: return nil
        }
    }
}

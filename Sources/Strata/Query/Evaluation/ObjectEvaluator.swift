#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// Evaluates a bound predicate on one object at a time, reading its values (and those of the objects it links
/// to) from the store: the path for everything column scans cannot do (key paths through links, lists, linking
/// objects, aggregates, subqueries) and the final check after an index lookup.
final class ObjectEvaluator {
    /// Where the tables come from: a database, or a catalog read from its stored schema.
    let database: any QueryTables
    /// The tables looked up so far, by model index; most queries read one table, which costs no dictionary.
    private var firstTable: (model: Int, table: Table)?
    private var otherTables: [Int: Table] = [:]
    /// ``matchingKeys(of:for:_:)``'s answers, by the comparison on the linked model.
    private var linkTargetKeys: [BoundComparison: [Int64]] = [:]

    init(database: any QueryTables) {
        self.database = database
    }

    /// The table of `model` in the version the database reads, looked up once per evaluation.
    func table(_ model: ModelBinding) throws -> Table {
        if let firstTable, firstTable.model == model.index { return firstTable.table }
        if let table = otherTables[model.index] { return table }
        let table = try database.table(for: model)
        if firstTable == nil {
            firstTable = (model.index, table)
        } else {
            otherTables[model.index] = table
        }
        return table
    }

    /// The ascending keys of `target`'s objects a comparison through a link matches, computed by `find` once per
    /// evaluation (`ColumnScan.throughLink`): an evaluation reads one version, so they hold for all its clusters.
    func matchingKeys(
        of target: ModelBinding, for comparison: BoundComparison, _ find: (Table) throws -> [Int64]
    ) throws -> [Int64] {
        if let keys = linkTargetKeys[comparison] { return keys }
        let keys = try find(try table(target))
        linkTargetKeys[comparison] = keys
        return keys
    }

    /// What a predicate sees: the tested object and the SUBQUERY variables in scope.
    struct Scope {
        var object: ObjectKey
        var variables: [String: QueryScalar] = [:]
    }

    /// Whether the object `key` satisfies `predicate`.
    func matches(_ predicate: BoundPredicate, key: ObjectKey) throws -> Bool {
        try matches(predicate, Scope(object: key))
    }

    /// Whether the object in `scope` satisfies `predicate`.
    func matches(_ predicate: BoundPredicate, _ scope: Scope) throws -> Bool {
        try predicate.fold(Matcher(evaluator: self, scope: scope))
    }

    /// Evaluates each node for one object: an AND stops at its first false term, an OR at its first true one.
    private struct Matcher: BoundPredicateVisitor {
        typealias Failure = any Error
        let evaluator: ObjectEvaluator
        let scope: Scope

        func constant(_ value: Bool) -> Bool { value }

        func comparison(_ comparison: BoundComparison) throws -> Bool { try evaluator.matches(comparison, scope) }

        func not(_ inner: FoldedTerm<Self>) throws -> Bool { try !inner.result() }

        func and(_ terms: FoldedTerms<Self>) throws -> Bool {
            for term in terms where try !term.result() { return false }
            return true
        }

        func or(_ terms: FoldedTerms<Self>) throws -> Bool {
            for term in terms where try term.result() { return true }
            return false
        }
    }

    // MARK: - Comparisons

    /// Whether the object in `scope` satisfies one comparison.
    private func matches(_ comparison: BoundComparison, _ scope: Scope) throws -> Bool {
        // The common case after an index lookup: one column of the object against a constant, read directly.
        if case .path(let path) = comparison.left, let (model, column) = path.rootColumn, case .value(let right) = comparison.right {
            let value = QueryScalar(try table(model).value(scope.object, column: model.columns[column]))
            return Self.compare(value, comparison.op, right, comparison.options, matcher: comparison.matcher)
        }
        let lefts = try values(of: comparison.left, scope)
        let rights: [QueryScalar]
        switch comparison.right {
        case .list(let values): rights = values
        default: rights = try values(of: comparison.right, scope)
        }
        let test = { (left: QueryScalar) -> Bool in Self.test(left, comparison, rights) }
        guard comparison.left.isToMany else { return test(lefts.first ?? .null) }
        switch comparison.quantifier {
        case .anyElement: return lefts.contains(where: test)
        case .allElements: return lefts.allSatisfy(test)
        case .noElement: return !lefts.contains(where: test)
        }
    }

    /// Whether one left value satisfies the comparison against the right side's values.
    static func test(_ left: QueryScalar, _ comparison: BoundComparison, _ rights: [QueryScalar]) -> Bool {
        switch (comparison.op, comparison.right) {
        case (.in, .list):
            if let members = comparison.members { return members.contains(left) }
            return rights.contains { Self.compare(left, .equal, $0, comparison.options, matcher: nil) }
        case (.between, .list):
            guard rights.count == 2, let low = QueryScalar.order(left, rights[0]),
                  let high = QueryScalar.order(left, rights[1]) else { return false }
            return low >= 0 && high <= 0
        default:
            if comparison.right.isToMany {
                return rights.contains { Self.compare(left, comparison.op, $0, comparison.options, matcher: nil) }
            }
            return Self.compare(left, comparison.op, rights.first ?? .null, comparison.options, matcher: comparison.matcher)
        }
    }

    /// `left <op> right` for single values; `matcher` is the prepared string matcher when `right` is constant.
    static func compare(
        _ left: QueryScalar, _ op: ComparisonOperator, _ right: QueryScalar, _ options: StringComparisonOptions,
        matcher: StringMatcher?
    ) -> Bool {
        if op.isStringOperator || !options.isEmpty {
            switch (left, right) {
            case (.string(let text), .string(let operand)):
                return (matcher ?? StringMatcher(op, operand, options: options)).matches(text)
            case (.data(let bytes), .data(let operand)):
                return (matcher ?? StringMatcher(op, data: operand, options: options)).matches(data: bytes)
            default:
                if op.isStringOperator { return false }
            }
        }
        switch op {
        case .equal, .in: return QueryScalar.equal(left, right)
        case .notEqual: return !QueryScalar.equal(left, right)
        case .less: return QueryScalar.order(left, right).map { $0 < 0 } ?? false
        case .lessOrEqual: return QueryScalar.order(left, right).map { $0 <= 0 } ?? false
        case .greater: return QueryScalar.order(left, right).map { $0 > 0 } ?? false
        case .greaterOrEqual: return QueryScalar.order(left, right).map { $0 >= 0 } ?? false
        case .beginsWith, .endsWith, .contains, .like, .between, .text: return false
        }
    }

    // MARK: - Operands

    /// The values an operand yields for the object in scope (several for a to-many key path).
    func values(of operand: BoundOperand, _ scope: Scope) throws -> [QueryScalar] {
        switch operand {
        case .value(let value): return [value]
        case .list(let values): return values
        case .path(let path): return try values(of: path, from: start(of: path, scope))
        case .aggregate(let collection, let function, let property):
            let elements = try values(of: collection, from: start(of: collection, scope))
            if function == .count { return [.int(Int64(elements.count))] }
            let items = try property.map { property in
                try elements.map { try values(of: property, from: $0).first ?? .null }
            } ?? elements
            return [Self.aggregate(function, items.filter { !$0.isNull }, integers: (property?.kind ?? collection.kind) == .integer)]
        case .subqueryCount(let collection, let variable, let predicate):
            let elements = try values(of: collection, from: start(of: collection, scope))
            var count: Int64 = 0
            var inner = scope
            for element in elements {
                inner.variables[variable] = element
                if try matches(predicate, inner) { count += 1 }
            }
            return [.int(count)]
        }
    }

    /// `@sum`, `@avg`, `@min`, `@max` of non-null values: sums of nothing are 0, the rest of nothing are nil.
    static func aggregate(_ function: AggregateFunction, _ values: [QueryScalar], integers: Bool) -> QueryScalar {
        switch function {
        case .count: return .int(Int64(values.count))
        case .sum where values.contains(where: Self.isDecimal):
            return .decimal(values.reduce(Decimal(0)) { $0 + ($1.decimalValue ?? 0) })
        case .avg where values.contains(where: Self.isDecimal):
            return .decimal(values.reduce(Decimal(0)) { $0 + ($1.decimalValue ?? 0) } / Decimal(values.count))
        case .sum:
            if integers {
                return .int(values.reduce(Int64(0)) { total, value in
                    if case .int(let number) = value { return total &+ number }
                    return total
                })
            }
            return .double(values.reduce(0) { $0 + ($1.number ?? 0) })
        case .avg:
            guard !values.isEmpty else { return .null }
            return .double(values.reduce(0) { $0 + ($1.number ?? 0) } / Double(values.count))
        case .min:
            return values.min { (QueryScalar.order($0, $1) ?? 0) < 0 } ?? .null
        case .max:
            return values.max { (QueryScalar.order($0, $1) ?? 0) < 0 } ?? .null
        }
    }

    /// The value a sort orders the object `key` by along the to-one `path`, or `nil` when a link on the way, or
    /// the link the path ends on, is nil: such objects sort after every value when ascending (as in Realm), and a
    /// nil value of the property itself sorts before every value.
    func sortValue(of path: BoundPath, from key: ObjectKey) throws -> QueryScalar? {
        var current = QueryScalar.object(key)
        for step in path.steps {
            guard case .object(let object) = current, case .property(let model, let column) = step else { return nil }
            current = QueryScalar(try table(model).value(object, column: model.columns[column]))
        }
        if path.endsOnObjects, current.isNull { return nil }
        return current
    }

    /// Whether `value` is a decimal (whose sums and averages are exact decimals).
    private static func isDecimal(_ value: QueryScalar) -> Bool {
        if case .decimal = value { return true }
        return false
    }

    private func start(of path: BoundPath, _ scope: Scope) -> QueryScalar {
        switch path.root {
        case .object: return .object(scope.object)
        case .variable(let name): return scope.variables[name] ?? .null
        }
    }

    /// Follows `path` from `start`: one value for a to-one path (nil through a nil link), every element for a
    /// to-many one.
    func values(of path: BoundPath, from start: QueryScalar) throws -> [QueryScalar] {
        var current = [start]
        for step in path.steps {
            var next: [QueryScalar] = []
            for value in current {
                guard case .object(let key) = value else {
                    next.append(.null)
                    continue
                }
                switch step {
                case .property(let model, let column):
                    switch try table(model).value(key, column: model.columns[column]) {
                    case .list(let elements): next += elements.map(QueryScalar.init)  // a list or a set
                    case .map(let entries):
                        next += entries.sorted { MapKeyOrder.precedes($0.key, $1.key) }.map { QueryScalar($0.value) }
                    case let value: next.append(QueryScalar(value))
                    }
                case .mapKeys(let model, let column):
                    let entries = try table(model).mapEntries(key, column: model.columns[column])
                    next += entries.keys.sorted(by: MapKeyOrder.precedes).map { .string($0) }
                case .mapValue(let model, let column, let mapKey):
                    let value = try table(model).mapValue(key, column: model.columns[column], for: mapKey)
                    next.append(value.map(QueryScalar.init) ?? .null)
                case .linkingObjects(let target, let source, let column):
                    var seen = Set<ObjectKey>()
                    let keys = try table(target).backlinks(of: key, from: source.tableKey, column: source.columns[column])
                    next += keys.filter { seen.insert($0).inserted }.map { .object($0) }
                }
            }
            current = next
        }
        return current
    }
}

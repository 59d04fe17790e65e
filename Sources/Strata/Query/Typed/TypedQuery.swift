import Foundation

/// The object a typed query tests: `$0` in `results.where { $0.age > 18 }`. The schema compiler generates its
/// members, one per property of the model (`extension Query where Element == Person { var age: … }`), so a
/// misspelled property does not compile; each is a ``QueryExpression`` to compare, follow
/// (`$0.favourite.name`) or aggregate (`$0.dogs.count`, `$0.dogs.sum("age")`).
public struct Query<Element: Object> {
    /// The tested object.
    public init() {}

    /// The property named `name`: what the generated members return.
    @_spi(StrataGenerated) public func member(named name: String) -> QueryExpression {
        QueryExpression(.keyPath(root: .object, components: [name], offset: 0), depth: 0)
    }
}

/// An element of a list in a typed subquery (`$0.dogs.any { $0.age > 3 }`).
@dynamicMemberLookup
public struct QueryElement {
    let root: KeyPathRoot
    let depth: Int

    /// The property named `name` of the element.
    public subscript(dynamicMember name: String) -> QueryExpression {
        QueryExpression(.keyPath(root: root, components: [name], offset: 0), depth: depth)
    }

    /// The element itself, for a list of primitive values (`$0.scores.any { $0.value > 3 }`).
    public var value: QueryExpression {
        QueryExpression(.keyPath(root: root, components: [], offset: 0), depth: depth)
    }
}

/// One side of a typed comparison: a key path, an aggregate or a subquery count.
@dynamicMemberLookup
public struct QueryExpression {
    let operand: PredicateOperand
    /// How many subqueries enclose it (names their variables uniquely).
    let depth: Int

    init(_ operand: PredicateOperand, depth: Int) {
        self.operand = operand
        self.depth = depth
    }

    /// The key path's parts (a `QueryExpression` is always a key path; aggregates are ``QueryAggregate``).
    private var keyPath: (root: KeyPathRoot, components: [String], offset: Int) {
        guard case .keyPath(let root, let components, let offset) = operand else { return (.object, [], 0) }
        return (root, components, offset)
    }

    /// The property `name` of the object this key path links to.
    public subscript(dynamicMember name: String) -> QueryExpression {
        let path = keyPath
        return QueryExpression(.keyPath(root: path.root, components: path.components + [name], offset: path.offset), depth: depth)
    }

    private func aggregate(_ function: AggregateFunction, _ property: String?) -> QueryAggregate {
        let path = keyPath
        let inner = property.map { $0.split(separator: ".").map(String.init) } ?? []
        return QueryAggregate(operand: .aggregate(
            root: path.root, collection: path.components, function: function, property: inner, offset: path.offset))
    }

    /// `list.@count`: the number of elements of a list or linking objects.
    public var count: QueryAggregate { aggregate(.count, nil) }
    /// `list.@sum.property` (or `list.@sum` for a list of numbers when `property` is nil).
    public func sum(_ property: String? = nil) -> QueryAggregate { aggregate(.sum, property) }
    /// `list.@avg.property`.
    public func average(_ property: String? = nil) -> QueryAggregate { aggregate(.avg, property) }
    /// `list.@min.property`.
    public func min(_ property: String? = nil) -> QueryAggregate { aggregate(.min, property) }
    /// `list.@max.property`.
    public func max(_ property: String? = nil) -> QueryAggregate { aggregate(.max, property) }

    // MARK: Subqueries

    /// The number of elements of this list that satisfy `predicate` (`SUBQUERY(list, $x, …).@count`).
    public func count(where predicate: (QueryElement) -> QueryPredicate) -> QueryAggregate {
        let path = keyPath
        // Nested subqueries get distinct variables: element1, element2, …
        let variable = "element\(depth + 1)"
        let inner = predicate(QueryElement(root: .variable(variable), depth: depth + 1)).node
        return QueryAggregate(operand: .subqueryCount(
            root: path.root, collection: path.components, variable: variable, predicate: inner, offset: path.offset))
    }

    /// Whether some element satisfies `predicate`.
    public func any(_ predicate: (QueryElement) -> QueryPredicate) -> QueryPredicate {
        count(where: predicate) > 0
    }

    /// Whether every element satisfies `predicate` (true for an empty list).
    public func all(_ predicate: (QueryElement) -> QueryPredicate) -> QueryPredicate {
        count(where: { !predicate($0) }) == 0
    }

    /// Whether no element satisfies `predicate`.
    public func none(_ predicate: (QueryElement) -> QueryPredicate) -> QueryPredicate {
        count(where: predicate) == 0
    }

    // MARK: Strings

    private func compare(_ op: ComparisonOperator, _ value: QueryValue, _ options: QueryStringOptions) -> QueryPredicate {
        QueryPredicate(.comparison(PredicateComparison(
            quantifier: nil, left: operand, op: op, options: options.comparisonOptions, right: .value(value), offset: 0)))
    }

    /// `BEGINSWITH`.
    public func starts(with prefix: String, options: QueryStringOptions = []) -> QueryPredicate {
        compare(.beginsWith, .string(prefix), options)
    }
    /// `ENDSWITH`.
    public func ends(with suffix: String, options: QueryStringOptions = []) -> QueryPredicate {
        compare(.endsWith, .string(suffix), options)
    }
    /// `CONTAINS`.
    public func contains(_ text: String, options: QueryStringOptions = []) -> QueryPredicate {
        compare(.contains, .string(text), options)
    }
    /// `LIKE` with `*` and `?` wildcards.
    public func like(_ pattern: String, options: QueryStringOptions = []) -> QueryPredicate {
        compare(.like, .string(pattern), options)
    }
    /// `TEXT`: full-text search, as in `$0.notes.matches("swift -java data*")` (words, `-word`, `prefix*`,
    /// `"a phrase"`; docs/QUERIES.md, "Full-text search"). Uses the property's full-text index when it has one.
    public func matches(_ query: String) -> QueryPredicate {
        compare(.text, .string(query), [])
    }
    /// `==` with `[c]`/`[d]` options.
    public func equals(_ text: String, options: QueryStringOptions) -> QueryPredicate {
        compare(.equal, .string(text), options)
    }

    // MARK: Sets and ranges

    /// `IN {…}`.
    public func `in`<S: Sequence>(_ values: S) -> QueryPredicate where S.Element: QueryConstant {
        compare(.in, .list(values.map(\.queryValue)), [])
    }

    /// `BETWEEN {low, high}` (both included).
    public func between<T: QueryConstant>(_ low: T, _ high: T) -> QueryPredicate {
        QueryPredicate(.comparison(PredicateComparison(
            quantifier: nil, left: operand, op: .between, options: [],
            right: .list([.value(low.queryValue), .value(high.queryValue)]), offset: 0)))
    }

    // MARK: Comparisons

    static func make(_ left: QueryExpression, _ op: ComparisonOperator, _ right: PredicateOperand) -> QueryPredicate {
        QueryPredicate(.comparison(PredicateComparison(
            quantifier: nil, left: left.operand, op: op, options: [], right: right, offset: 0)))
    }

    /// `==`
    public static func == <T: QueryConstant>(left: QueryExpression, right: T) -> QueryPredicate { make(left, .equal, .value(right.queryValue)) }
    /// `!=`
    public static func != <T: QueryConstant>(left: QueryExpression, right: T) -> QueryPredicate { make(left, .notEqual, .value(right.queryValue)) }
    /// `<`
    public static func < <T: QueryConstant>(left: QueryExpression, right: T) -> QueryPredicate { make(left, .less, .value(right.queryValue)) }
    /// `<=`
    public static func <= <T: QueryConstant>(left: QueryExpression, right: T) -> QueryPredicate { make(left, .lessOrEqual, .value(right.queryValue)) }
    /// `>`
    public static func > <T: QueryConstant>(left: QueryExpression, right: T) -> QueryPredicate { make(left, .greater, .value(right.queryValue)) }
    /// `>=`
    public static func >= <T: QueryConstant>(left: QueryExpression, right: T) -> QueryPredicate { make(left, .greaterOrEqual, .value(right.queryValue)) }
    /// `== nil`
    public static func == (left: QueryExpression, right: _OptionalNilComparisonType) -> QueryPredicate { make(left, .equal, .value(.null)) }
    /// `!= nil`
    public static func != (left: QueryExpression, right: _OptionalNilComparisonType) -> QueryPredicate { make(left, .notEqual, .value(.null)) }
    /// Two key paths: `$0.name == $0.nickname`.
    public static func == (left: QueryExpression, right: QueryExpression) -> QueryPredicate { make(left, .equal, right.operand) }
    /// Two key paths: `$0.name != $0.nickname`.
    public static func != (left: QueryExpression, right: QueryExpression) -> QueryPredicate { make(left, .notEqual, right.operand) }
    /// Two key paths: `$0.age < $0.mentor.age`.
    public static func < (left: QueryExpression, right: QueryExpression) -> QueryPredicate { make(left, .less, right.operand) }
    /// Two key paths: `$0.age > $0.mentor.age`.
    public static func > (left: QueryExpression, right: QueryExpression) -> QueryPredicate { make(left, .greater, right.operand) }
}

/// A number computed from a list in a typed query: `$0.dogs.count`, `$0.dogs.sum("age")`,
/// `$0.dogs.count(where: { $0.age > 3 })`. It compares with Swift numbers and with key paths.
public struct QueryAggregate {
    let operand: PredicateOperand

    private static func make(_ left: QueryAggregate, _ op: ComparisonOperator, _ right: PredicateOperand) -> QueryPredicate {
        QueryPredicate(.comparison(PredicateComparison(
            quantifier: nil, left: left.operand, op: op, options: [], right: right, offset: 0)))
    }

    /// `==`
    public static func == <T: QueryConstant>(left: QueryAggregate, right: T) -> QueryPredicate { make(left, .equal, .value(right.queryValue)) }
    /// `!=`
    public static func != <T: QueryConstant>(left: QueryAggregate, right: T) -> QueryPredicate { make(left, .notEqual, .value(right.queryValue)) }
    /// `<`
    public static func < <T: QueryConstant>(left: QueryAggregate, right: T) -> QueryPredicate { make(left, .less, .value(right.queryValue)) }
    /// `<=`
    public static func <= <T: QueryConstant>(left: QueryAggregate, right: T) -> QueryPredicate { make(left, .lessOrEqual, .value(right.queryValue)) }
    /// `>`
    public static func > <T: QueryConstant>(left: QueryAggregate, right: T) -> QueryPredicate { make(left, .greater, .value(right.queryValue)) }
    /// `>=`
    public static func >= <T: QueryConstant>(left: QueryAggregate, right: T) -> QueryPredicate { make(left, .greaterOrEqual, .value(right.queryValue)) }
    /// `== nil` (an empty list's average, minimum or maximum).
    public static func == (left: QueryAggregate, right: _OptionalNilComparisonType) -> QueryPredicate { make(left, .equal, .value(.null)) }
    /// Compared with a key path: `$0.dogs.max("age") > $0.age`.
    public static func > (left: QueryAggregate, right: QueryExpression) -> QueryPredicate { make(left, .greater, right.operand) }
    /// Compared with a key path: `$0.dogs.min("age") < $0.age`.
    public static func < (left: QueryAggregate, right: QueryExpression) -> QueryPredicate { make(left, .less, right.operand) }
    /// Compared with a key path: `$0.dogs.count == $0.limit`.
    public static func == (left: QueryAggregate, right: QueryExpression) -> QueryPredicate { make(left, .equal, right.operand) }
}

/// `[c]` and `[d]` for typed string comparisons.
public struct QueryStringOptions: OptionSet, Sendable {
    /// The options as bits.
    public let rawValue: UInt8
    /// Creates options from bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Unicode case folding (`[c]`).
    public static let caseInsensitive = QueryStringOptions(rawValue: 1)
    /// Diacritics ignored (`[d]`).
    public static let diacriticInsensitive = QueryStringOptions(rawValue: 2)

    var comparisonOptions: StringComparisonOptions { StringComparisonOptions(rawValue: rawValue) }
}

/// A typed query's condition, combined with `&&`, `||` and `!`.
public struct QueryPredicate: CustomStringConvertible {
    let node: PredicateNode

    init(_ node: PredicateNode) { self.node = node }

    /// Matches every object (`TRUEPREDICATE`).
    public static var always: QueryPredicate { QueryPredicate(.constant(true)) }
    /// Matches no object (`FALSEPREDICATE`).
    public static var never: QueryPredicate { QueryPredicate(.constant(false)) }

    /// Both hold.
    public static func && (left: QueryPredicate, right: QueryPredicate) -> QueryPredicate {
        if case .and(let terms) = left.node { return QueryPredicate(.and(terms + [right.node])) }
        return QueryPredicate(.and([left.node, right.node]))
    }

    /// Either holds.
    public static func || (left: QueryPredicate, right: QueryPredicate) -> QueryPredicate {
        if case .or(let terms) = left.node { return QueryPredicate(.or(terms + [right.node])) }
        return QueryPredicate(.or([left.node, right.node]))
    }

    /// It does not hold.
    public static prefix func ! (predicate: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.not(predicate.node))
    }

    /// Names the typed query in error messages.
    public var description: String { "typed query" }
}

/// A Swift value a typed query compares with.
public protocol QueryConstant {
    /// The value as a query constant.
    var queryValue: QueryValue { get }
}

extension Int: QueryConstant {
    /// `.int`
    public var queryValue: QueryValue { .int(Int64(self)) }
}
extension Int64: QueryConstant {
    /// `.int`
    public var queryValue: QueryValue { .int(self) }
}
extension Int32: QueryConstant {
    /// `.int`
    public var queryValue: QueryValue { .int(Int64(self)) }
}
extension Int16: QueryConstant {
    /// `.int`
    public var queryValue: QueryValue { .int(Int64(self)) }
}
extension Int8: QueryConstant {
    /// `.int`
    public var queryValue: QueryValue { .int(Int64(self)) }
}
extension Double: QueryConstant {
    /// `.double`
    public var queryValue: QueryValue { .double(self) }
}
extension Float: QueryConstant {
    /// `.double`
    public var queryValue: QueryValue { .double(Double(self)) }
}
extension Bool: QueryConstant {
    /// `.bool`
    public var queryValue: QueryValue { .bool(self) }
}
extension String: QueryConstant {
    /// `.string`
    public var queryValue: QueryValue { .string(self) }
}
extension Date: QueryConstant {
    /// `.date`
    public var queryValue: QueryValue { .date(self) }
}
extension UUID: QueryConstant {
    /// `.uuid`
    public var queryValue: QueryValue { .uuid(self) }
}
extension Data: QueryConstant {
    /// `.data`
    public var queryValue: QueryValue { .data(self) }
}
extension Decimal: QueryConstant {
    /// `.decimal`
    public var queryValue: QueryValue { .decimal(self) }
}
extension ObjectId: QueryConstant {
    /// `.objectId`
    public var queryValue: QueryValue { .objectId(self) }
}
extension AnyValue: QueryConstant {
    /// The held value's query value (`.none` is `.null`; an object is its model and key, `.null` while unmanaged).
    public var queryValue: QueryValue {
        switch self {
        case .none: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(Int64(value))
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .data(let value): return .data(value)
        case .date(let value): return .date(value)
        case .uuid(let value): return .uuid(value)
        case .decimal(let value): return .decimal(value)
        case .objectId(let value): return .objectId(value)
        case .object(let object):
            guard let row = object.managedAccessor as? ManagedRow else { return .null }
            return .object(model: row.model.name, key: row.key.rawValue)
        }
    }
}
extension Optional: QueryConstant where Wrapped: QueryConstant {
    /// The wrapped value's, or `.null`.
    public var queryValue: QueryValue { self?.queryValue ?? .null }
}

/// A parsed predicate: the tree the query planner and evaluator work on.
indirect enum PredicateNode: Hashable, Sendable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    /// `NOT p`
    case not(PredicateNode)
    /// `p AND q AND …`
    case and([PredicateNode])
    /// `p OR q OR …`
    case or([PredicateNode])
    /// `left op right`, possibly quantified.
    case comparison(PredicateComparison)
}

/// `ANY` / `ALL` / `NONE` over a to-many key path.
enum PredicateQuantifier: String, Hashable, Sendable {
    case anyElement = "ANY"
    case allElements = "ALL"
    case noElement = "NONE"
}

/// Every comparison operator of the predicate language.
enum ComparisonOperator: String, Hashable, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case `in` = "IN"
    case between = "BETWEEN"
    /// Full-text search (`notes TEXT "swift -java data*"`, see `FullTextQuery`).
    case text = "TEXT"

    /// Operators that only compare strings (and binary data).
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .text: return true
        default: return false
        }
    }
}

/// `[c]`, `[d]`, `[cd]`.
struct StringComparisonOptions: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    /// `[c]`: Unicode case folding.
    static let caseInsensitive = StringComparisonOptions(rawValue: 1)
    /// `[d]`: diacritics ignored.
    static let diacriticInsensitive = StringComparisonOptions(rawValue: 2)
}

/// One comparison.
struct PredicateComparison: Hashable, Sendable {
    var quantifier: PredicateQuantifier?
    var left: PredicateOperand
    var op: ComparisonOperator
    var options: StringComparisonOptions
    var right: PredicateOperand
    /// UTF-8 offset of the operator, for errors found after parsing (unknown property, wrong type).
    var offset: Int
}

/// Where a key path starts: the object being tested or a SUBQUERY variable.
enum KeyPathRoot: Hashable, Sendable {
    case object
    case variable(String)
}

/// `@count`, `@sum`, `@avg`, `@min`, `@max`.
enum AggregateFunction: String, Hashable, Sendable {
    case count, sum, avg, min, max
}

/// One side of a comparison. Only the large, rare cases are boxed (`indirect`): key paths, values and arguments
/// stay inline, so substituting an argument costs no allocation and a comparison stays small to copy.
enum PredicateOperand: Hashable, Sendable {
    /// `favourite.title`, `$x.age`.
    case keyPath(root: KeyPathRoot, components: [String], offset: Int)
    /// A literal or an argument.
    case value(QueryValue)
    /// `loans.@count`, `loans.@sum.amount`, `scores.@avg` (on a list of primitives: no property).
    indirect case aggregate(
        root: KeyPathRoot, collection: [String], function: AggregateFunction, property: [String], offset: Int)
    /// `SUBQUERY(loans, $l, $l.days > 3).@count`.
    indirect case subqueryCount(
        root: KeyPathRoot, collection: [String], variable: String, predicate: PredicateNode, offset: Int)
    /// `{a, b}` with expressions inside (arguments, literals).
    case list([PredicateOperand])
    /// A `%@ %d %f %K` placeholder, replaced by its argument when the predicate is bound.
    case argument(ArgumentSlot)
    /// A key path with `%K` placeholders among its components (`%K.%K`, `name.%K`, `$x.%K`), which becomes a
    /// `.keyPath` when its arguments are substituted. A lone `%K` is an `.argument`.
    case keyPathTemplate(root: KeyPathRoot, parts: [KeyPathPart], offset: Int)
}

/// One component of a key path written with `%K` placeholders: a property name, or a placeholder whose key path
/// argument (one name, or several joined with dots) takes its place.
enum KeyPathPart: Hashable, Sendable {
    case name(String)
    case argument(ArgumentSlot)
}

/// One `%` placeholder of a predicate string: which argument fills it, what it accepts, where it is written.
struct ArgumentSlot: Hashable, Sendable {
    /// The argument's position among the arguments, counted from 0 left to right.
    var index: Int
    /// The letter after `%`: `@` (any value), `K` (a key path), `d`/`i` (an integer), `f` (a number), …
    var letter: Character
    /// UTF-8 offset of the placeholder, for errors about its argument.
    var offset: Int
}

// MARK: - Text

extension PredicateComparison {
    /// The comparison as written (its arguments substituted), for `explain` and messages; built only when asked
    /// for, since most queries never show it.
    var text: String {
        let prefix = quantifier.map { "\($0.rawValue) " } ?? ""
        return "\(prefix)\(left.text) \(op.rawValue)\(options.text) \(right.text)"
    }
}

extension StringComparisonOptions {
    /// `[c]`, `[d]`, `[cd]`, or nothing.
    var text: String {
        if isEmpty { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

extension PredicateOperand {
    /// The operand as written, for `explain` and messages.
    var text: String {
        switch self {
        case .keyPath(let root, let components, _):
            return MapPathComponent.text(root.textComponents + components)
        case .value(let value): return value.description
        case .aggregate(let root, let collection, let function, let property, _):
            return MapPathComponent.text(root.textComponents + collection + ["@" + function.rawValue] + property)
        case .subqueryCount(_, let collection, let variable, _, _):
            return "SUBQUERY(\(collection.joined(separator: ".")), $\(variable), …).@count"
        case .list(let items): return "{" + items.map(\.text).joined(separator: ", ") + "}"
        case .argument(let slot): return "%\(slot.letter)"
        case .keyPathTemplate(let root, let parts, _):
            return (root.textComponents + parts.map(\.text)).joined(separator: ".")
        }
    }
}

extension KeyPathPart {
    /// The component as written: the name, or `%K`.
    var text: String {
        switch self {
        case .name(let name): return name
        case .argument(let slot): return "%\(slot.letter)"
        }
    }
}

extension KeyPathRoot {
    /// The leading components of a key path's text: none for the tested object, `$name` for a variable.
    fileprivate var textComponents: [String] {
        if case .variable(let name) = self { return ["$" + name] }
        return []
    }
}

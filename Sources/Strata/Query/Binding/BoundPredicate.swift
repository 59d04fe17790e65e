import StrataStorage

/// What a property or expression holds, as a query compares it.
enum QueryKind: Equatable, CustomStringConvertible {
    case bool, integer, floating, string, data, date, uuid
    /// A link to an object of the named model.
    case object(String)

    var isNumeric: Bool { self == .integer || self == .floating }

    var description: String {
        switch self {
        case .bool: return "bool"
        case .integer: return "int"
        case .floating: return "double"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .uuid: return "uuid"
        case .object(let model): return model
        }
    }
}

/// One step of a resolved key path, from an object of one model.
enum PathStep {
    /// A stored property (a value, a link or a list) of `model`, by column index.
    case property(model: ModelBinding, column: Int)
    /// The objects of `source` whose link or list in `column` points to the current object (of `target`).
    case linkingObjects(target: ModelBinding, source: ModelBinding, column: Int)
}

/// A key path resolved against the schema: where it starts, its steps, and what it ends on.
struct BoundPath {
    /// Where the path starts: the tested object or a SUBQUERY variable.
    var root: KeyPathRoot
    var steps: [PathStep]
    /// The kind of the values it ends on (the element kind for a list).
    var kind: QueryKind
    /// Whether it can yield several values (it goes through a list or linking objects).
    var isToMany: Bool
    /// The path as written, for `explain` and messages.
    var text: String

    /// The single column of the tested object this path reads, when it is nothing more than that.
    var rootColumn: (model: ModelBinding, column: Int)? {
        guard root == .object, steps.count == 1, !isToMany, case .property(let model, let column) = steps[0] else {
            return nil
        }
        return (model, column)
    }
}

/// A resolved operand: what the evaluator computes for one side of a comparison. Only the large, rare cases are
/// boxed (`indirect`), so binding a key path or a constant costs no allocation and a comparison stays small.
enum BoundOperand {
    /// A constant (a single value).
    case value(QueryScalar)
    /// `{a, b, c}` (for `IN` and `BETWEEN`).
    case list([QueryScalar])
    /// A key path's value(s).
    case path(BoundPath)
    /// `collection.@count`, `collection.@sum.property`, … over a to-many path.
    indirect case aggregate(collection: BoundPath, function: AggregateFunction, property: BoundPath?)
    /// `SUBQUERY(collection, $variable, predicate).@count`.
    indirect case subqueryCount(collection: BoundPath, variable: String, predicate: BoundPredicate)

    /// Whether the operand yields several values to quantify over.
    var isToMany: Bool {
        if case .path(let path) = self { return path.isToMany }
        return false
    }
}

/// One resolved comparison, with its string matcher prepared when the right side is a constant string.
struct BoundComparison {
    var quantifier: PredicateQuantifier
    var left: BoundOperand
    var op: ComparisonOperator
    var options: StringComparisonOptions
    var right: BoundOperand
    /// The comparison as written (arguments substituted, a constant on the left moved right): what `text` shows.
    var written: PredicateComparison
    /// For string operators (and `==`/`!=` with options) against a constant string.
    var matcher: StringMatcher?

    /// The comparison as text, for `explain`.
    var text: String { written.text }
}

/// A predicate resolved against a model: every key path checked and typed, every constant converted.
indirect enum BoundPredicate {
    case constant(Bool)
    case not(BoundPredicate)
    case and([BoundPredicate])
    case or([BoundPredicate])
    case comparison(BoundComparison)

    /// The predicate as text, for `explain`.
    var text: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .not(let inner): return "NOT \(inner.parenthesizedText)"
        case .and(let terms): return terms.map(\.parenthesizedText).joined(separator: " AND ")
        case .or(let terms): return terms.map(\.parenthesizedText).joined(separator: " OR ")
        case .comparison(let comparison): return comparison.text
        }
    }

    private var parenthesizedText: String {
        switch self {
        case .and, .or: return "(\(text))"
        default: return text
        }
    }
}

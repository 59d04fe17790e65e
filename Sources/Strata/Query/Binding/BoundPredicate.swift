import StrataSchema
import StrataStorage

/// What a property or expression holds, as a query compares it.
enum QueryKind: Equatable, CustomStringConvertible {
    case bool, integer, floating, string, data, date, uuid
    /// A link to an object of the named model.
    case object(String)
    case decimal, objectId
    /// A mixed (`any`) value: any kind, compared by value (numbers across int, double and decimal).
    case mixed

    var isNumeric: Bool { self == .integer || self == .floating || self == .decimal }

    /// Whether `<`, `<=`, `>`, `>=` order its values: numbers (decimals too), dates, strings and data (by Unicode
    /// scalars and by bytes, which UTF-8 byte order gives for both), ObjectIds (by their bytes), and mixed values
    /// (as in Realm: values of comparable kinds compare, others never match).
    var isOrdered: Bool {
        switch self {
        case .integer, .floating, .date, .string, .data: return true
        case .bool, .uuid, .object: return false
        case .decimal, .objectId, .mixed: return true
        }
    }

    /// Whether the text operators (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`) and `[c]`/`[d]` apply: strings,
    /// data (its bytes; with `[c]`, `[d]` or `LIKE`, read as UTF-8 text), and mixed values (as in Realm: a mixed
    /// value that holds a string matches, any other never does).
    var isTextual: Bool {
        switch self {
        case .string, .data: return true
        case .bool, .integer, .floating, .date, .uuid, .object: return false
        case .decimal, .objectId: return false
        case .mixed: return true
        }
    }

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
        case .decimal: return "decimal"
        case .objectId: return "objectId"
        case .mixed: return "any"
        }
    }
}

/// One step of a resolved key path, from an object of one model.
///
/// Two steps are equal when they read the same column of the same table: a model binding counts by its table.
enum PathStep: Hashable {
    /// A stored property (a value, a link or a list) of `model`, by column index.
    case property(model: ModelBinding, column: Int)
    /// The objects of `source` whose link or list in `column` points to the current object (of `target`).
    case linkingObjects(target: ModelBinding, source: ModelBinding, column: Int)
    /// The keys of the map property of `model` in `column`, in key order.
    case mapKeys(model: ModelBinding, column: Int)
    /// The value under `key` of the map property of `model` in `column` (nil when the map has no such key).
    case mapValue(model: ModelBinding, column: Int, key: String)

    static func == (left: PathStep, right: PathStep) -> Bool {
        switch (left, right) {
        case (.property(let model, let column), .property(let otherModel, let otherColumn)):
            return column == otherColumn && model.tableKey == otherModel.tableKey
        case (.linkingObjects(let target, let source, let column),
              .linkingObjects(let otherTarget, let otherSource, let otherColumn)):
            return column == otherColumn && target.tableKey == otherTarget.tableKey
                && source.tableKey == otherSource.tableKey
        case (.mapKeys(let model, let column), .mapKeys(let otherModel, let otherColumn)):
            return column == otherColumn && model.tableKey == otherModel.tableKey
        case (.mapValue(let model, let column, let key), .mapValue(let otherModel, let otherColumn, let otherKey)):
            return column == otherColumn && key == otherKey && model.tableKey == otherModel.tableKey
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .property(let model, let column):
            hasher.combine(0)
            hasher.combine(model.tableKey)
            hasher.combine(column)
        case .linkingObjects(let target, let source, let column):
            hasher.combine(1)
            hasher.combine(target.tableKey)
            hasher.combine(source.tableKey)
            hasher.combine(column)
        case .mapKeys(let model, let column):
            hasher.combine(2)
            hasher.combine(model.tableKey)
            hasher.combine(column)
        case .mapValue(let model, let column, let key):
            hasher.combine(3)
            hasher.combine(model.tableKey)
            hasher.combine(column)
            hasher.combine(key)
        }
    }
}

/// A key path resolved against the schema: where it starts, its steps, and what it ends on.
///
/// Two paths are equal when they start at the same root and take the same steps (their kind follows from the
/// steps; the text as written does not count).
struct BoundPath: Hashable {
    /// Where the path starts: the tested object or a SUBQUERY variable.
    var root: KeyPathRoot
    var steps: [PathStep]
    /// The kind of the values it ends on (the element kind for a list).
    var kind: QueryKind
    /// Whether it can yield several values (it goes through a list, set, map or linking objects).
    var isToMany: Bool
    /// The path as written, for `explain` and messages.
    var text: String
    /// The type of the values it ends on, as the schema declares it (a list's element type; `nil` for linking
    /// objects): what says whether they can be nil and how constants are converted for them.
    var valueType: PropertyType?
    /// How many lists and linking objects it goes through (`parents.parents.name`: two).
    var toManySteps = 0

    /// Whether it ends on objects (a link, a list of links, linking objects).
    var endsOnObjects: Bool {
        if case .object = kind { return true }
        return false
    }

    /// Whether its values can be nil: an optional property, an `any` (which holds nil itself), a link, or
    /// linking objects.
    var isNullable: Bool {
        guard let valueType else { return true }
        if valueType.isNullable { return true }
        if case .link = valueType { return true }
        return false
    }

    /// The single column of the tested object this path reads, when it is nothing more than that.
    var rootColumn: (model: ModelBinding, column: Int)? {
        guard root == .object, steps.count == 1, !isToMany, case .property(let model, let column) = steps[0] else {
            return nil
        }
        return (model, column)
    }

    static func == (left: BoundPath, right: BoundPath) -> Bool {
        left.root == right.root && left.steps == right.steps
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(root)
        hasher.combine(steps)
    }
}

/// A resolved operand: what the evaluator computes for one side of a comparison. Only the large, rare cases are
/// boxed (`indirect`), so binding a key path or a constant costs no allocation and a comparison stays small.
///
/// Two operands are equal when they yield the same values; constants compare as ``QueryScalar/isIdentical(to:)``
/// says (strings by their bytes, as the query compares them).
enum BoundOperand: Hashable {
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

    /// The values of a constant operand (a value, or a list for `IN` and `BETWEEN`); `nil` for one the evaluator
    /// computes per object.
    var constants: [QueryScalar]? {
        switch self {
        case .value(let value): return [value]
        case .list(let values): return values
        case .path, .aggregate, .subqueryCount: return nil
        }
    }

    /// Whether the operand yields several values to quantify over.
    var isToMany: Bool {
        if case .path(let path) = self { return path.isToMany }
        return false
    }

    /// Whether the operand is a key path to `float` values, whose constants are rounded to `Float` when bound.
    var storesFloat: Bool {
        guard case .path(let path) = self else { return false }
        return path.valueType?.unwrapped == .float
    }

    static func == (left: BoundOperand, right: BoundOperand) -> Bool {
        switch (left, right) {
        case (.value(let a), .value(let b)): return a.isIdentical(to: b)
        case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case (.path(let a), .path(let b)): return a == b
        case (.aggregate(let collection, let function, let property),
              .aggregate(let otherCollection, let otherFunction, let otherProperty)):
            return function == otherFunction && collection == otherCollection && property == otherProperty
        case (.subqueryCount(let collection, let variable, let predicate),
              .subqueryCount(let otherCollection, let otherVariable, let otherPredicate)):
            return variable == otherVariable && collection == otherCollection && predicate == otherPredicate
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .value(let value):
            hasher.combine(0)
            value.hashIdentity(into: &hasher)
        case .list(let values):
            hasher.combine(1)
            hasher.combine(values.count)
            for value in values { value.hashIdentity(into: &hasher) }
        case .path(let path):
            hasher.combine(2)
            hasher.combine(path)
        case .aggregate(let collection, let function, let property):
            hasher.combine(3)
            hasher.combine(collection)
            hasher.combine(function)
            hasher.combine(property)
        case .subqueryCount(let collection, let variable, let predicate):
            hasher.combine(4)
            hasher.combine(collection)
            hasher.combine(variable)
            hasher.combine(predicate)
        }
    }
}

/// One resolved comparison, with its string matcher prepared when the right side is a constant string.
///
/// Two comparisons are equal when they select the same objects by the same means: quantifier, operands,
/// operator and options. The text as written, the string matcher and the `IN` set follow from those and do not
/// count.
struct BoundComparison: Hashable {
    var quantifier: PredicateQuantifier
    var left: BoundOperand
    var op: ComparisonOperator
    var options: StringComparisonOptions
    var right: BoundOperand
    /// The comparison as written (arguments substituted, a constant on the left moved right): what `text` shows.
    var written: PredicateComparison
    /// For string operators (and `==`/`!=` with options) against a constant string.
    var matcher: StringMatcher?
    /// For `IN` a list: its values hashed, so that testing a value costs one lookup.
    var members: ScalarSet?

    /// The comparison as text, for `explain`.
    var text: String { written.text }

    static func == (left: BoundComparison, right: BoundComparison) -> Bool {
        left.quantifier == right.quantifier && left.op == right.op && left.options == right.options
            && left.left == right.left && left.right == right.right
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(quantifier)
        hasher.combine(left)
        hasher.combine(op)
        hasher.combine(options)
        hasher.combine(right)
    }
}

/// A predicate resolved against a model: every key path checked and typed, every constant converted.
///
/// `Hashable`: two predicates are equal when they select the same objects in the same way (the same tree of
/// equal comparisons), which is what lets observers of equal queries share one computed change (see
/// `ResultsIdentity`). Code that walks the tree does it through ``fold(_:)`` with a ``BoundPredicateVisitor``.
indirect enum BoundPredicate: Hashable {
    case constant(Bool)
    case not(BoundPredicate)
    case and([BoundPredicate])
    case or([BoundPredicate])
    case comparison(BoundComparison)

    /// The predicate as text, for `explain`.
    var text: String { fold(PredicateText()) }

    /// Whether the predicate is an AND or an OR, which its text shows in parentheses inside another predicate.
    var isCompound: Bool {
        switch self {
        case .and, .or: return true
        default: return false
        }
    }
}

/// The text of a predicate, for `explain`: sub-predicates that are ANDs or ORs are parenthesized.
private struct PredicateText: BoundPredicateVisitor {
    func constant(_ value: Bool) -> String { value ? "TRUEPREDICATE" : "FALSEPREDICATE" }
    func comparison(_ comparison: BoundComparison) -> String { comparison.text }
    func not(_ inner: FoldedTerm<Self>) -> String { "NOT \(parenthesized(inner))" }
    func and(_ terms: FoldedTerms<Self>) -> String { terms.map(parenthesized).joined(separator: " AND ") }
    func or(_ terms: FoldedTerms<Self>) -> String { terms.map(parenthesized).joined(separator: " OR ") }

    private func parenthesized(_ term: FoldedTerm<Self>) -> String {
        term.predicate.isCompound ? "(\(term.result()))" : term.result()
    }
}

import Foundation
import StrataSchema
import StrataStorage

/// Resolves a parsed predicate against a model: finds each key path's properties, checks that every operator
/// suits the types it compares and that every constant has the right type, and converts constants once.
///
/// Every error is a `StrataError.invalidPredicate` naming the offending token and its offset in the predicate.
struct PredicateBinder {
    let predicate: String
    let schema: SchemaBinding
    let model: ModelBinding
    /// What fills the predicate's `%` placeholders.
    let arguments: PredicateArguments
    /// The models (or element kinds) of the SUBQUERY variables in scope.
    private var variables: [String: VariableBinding] = [:]

    /// What a SUBQUERY variable stands for: an object of a model, or a primitive list element (described by the
    /// list's path: its kind and element type).
    private enum VariableBinding {
        case object(ModelBinding)
        case primitive(BoundPath)
    }

    init(predicate: String, schema: SchemaBinding, model: ModelBinding, arguments: PredicateArguments = .none) {
        self.predicate = predicate
        self.schema = schema
        self.model = model
        self.arguments = arguments
    }

    /// The resolved predicate.
    func bind(_ node: PredicateNode) throws -> BoundPredicate {
        switch node {
        case .constant(let value): return .constant(value)
        case .not(let inner): return .not(try bind(inner))
        case .and(let terms): return .and(try terms.map(bind))
        case .or(let terms): return .or(try terms.map(bind))
        case .comparison(let comparison): return .comparison(try bind(comparison))
        }
    }

    // MARK: - Comparisons

    private func bind(_ comparison: PredicateComparison) throws -> BoundComparison {
        var comparison = try arguments.substituting(comparison, predicate: predicate)
        if isConstant(comparison.left), isConstant(comparison.right) {
            throw error("'\(comparison.text)' compares two constants; one side must be a property's key path",
                        comparison.offset)
        }
        // `"x" IN tags`, `3 < age`: put the key path on the left, where quantifiers and scans expect it.
        if isConstant(comparison.left), !isConstant(comparison.right) {
            guard comparison.quantifier == nil else {
                throw error("ANY, ALL and NONE apply to the key path on the left", comparison.offset)
            }
            swap(&comparison.left, &comparison.right)
            switch comparison.op {
            case .in: comparison.op = .equal
            case .less: comparison.op = .greater
            case .lessOrEqual: comparison.op = .greaterOrEqual
            case .greater: comparison.op = .less
            case .greaterOrEqual: comparison.op = .lessOrEqual
            case .equal, .notEqual: break
            default:
                throw error("'\(comparison.op.rawValue)' needs the key path on its left, as in 'name \(comparison.op.rawValue) \"x\"'",
                            comparison.offset)
            }
        }
        let left = try bind(comparison.left)
        var right = try bind(comparison.right)
        var op = comparison.op
        let leftKind = try kind(of: left, comparison.left)

        // `name IN tags`: equality against any element of a to-many key path.
        if op == .in, case .path(let path) = right, path.isToMany { op = .equal }

        var quantifier = comparison.quantifier ?? .anyElement
        if comparison.quantifier != nil, !left.isToMany {
            throw error("\(comparison.quantifier!.rawValue) needs a list, set, map or linking objects on the left, "
                        + "but '\(comparison.left.text)' holds one value", comparison.offset)
        }
        if !left.isToMany { quantifier = .anyElement }

        try check(op: op, options: comparison.options, leftKind: leftKind, left: comparison.left,
                  offset: comparison.offset)
        let matcher: StringMatcher?
        (right, matcher) = try checkRight(
            right, comparison.right, left: left, leftKind: leftKind, op: op, options: comparison.options,
            offset: comparison.offset)
        return BoundComparison(
            quantifier: quantifier, left: left, op: op, options: comparison.options, right: right,
            written: comparison, matcher: matcher,
            members: ScalarSet(op: op, right: right, options: comparison.options))
    }

    /// `comparison`, bound before from a written `keyPath op %@` (``BindingTemplate/canRebind(_:)``), with
    /// `value` as its right side instead: the right side is checked and converted as ``bind(_:)`` does, and the
    /// left side, which no argument changes, is kept as it was resolved.
    ///
    /// - Throws: `StrataError.invalidPredicate`, as ``bind(_:)`` would, when `value` does not suit the left side.
    func rebind(_ comparison: inout BoundComparison, to value: QueryValue) throws {
        let source = PredicateOperand.value(value)
        let leftKind = try kind(of: comparison.left, comparison.written.left)
        (comparison.right, comparison.matcher) = try checkRight(
            try bind(source), source, left: comparison.left, leftKind: leftKind, op: comparison.op,
            options: comparison.options, offset: comparison.written.offset)
        comparison.members = ScalarSet(op: comparison.op, right: comparison.right, options: comparison.options)
        comparison.written.right = source
    }

    /// The right side checked against the operator and the left side (converted to the left side's kind), and
    /// the string matcher a constant string needs.
    private func checkRight(
        _ right: BoundOperand, _ source: PredicateOperand, left: BoundOperand, leftKind: QueryKind?,
        op: ComparisonOperator, options: StringComparisonOptions, offset: Int
    ) throws -> (BoundOperand, StringMatcher?) {
        switch (op, right) {
        case (.in, .list), (.between, .list): break
        case (.in, .value):
            throw error("IN needs a list such as {1, 2} or a list property on its right", offset)
        case (.between, _):
            throw error("BETWEEN needs two bounds, as in 'age BETWEEN {18, 65}'", offset)
        case (_, .list):
            throw error("a list {…} can only follow IN or BETWEEN, not '\(op.rawValue)'", offset)
        default: break
        }
        if case .value(.null) = source, op == .equal || op == .notEqual, case .path(let path) = left, !path.isNullable {
            throw error("'\(path.text)' is not optional and is never nil; compare it with a value of its type", offset)
        }
        let right = try checkRight(
            right, source, leftKind: leftKind, op: op, storesFloat: left.storesFloat, offset: offset)
        if case .path(let rightPath) = right, rightPath.isToMany, left.isToMany {
            throw error("only one side of a comparison can be a list", offset)
        }
        var matcher: StringMatcher?
        if op.isStringOperator || !options.isEmpty {
            switch (leftKind, right) {
            case (.string, .value(.string(let operand))), (.mixed, .value(.string(let operand))):
                matcher = StringMatcher(op, operand, options: options)
            case (.data, .value(.data(let operand))): matcher = StringMatcher(op, data: operand, options: options)
            default: break
            }
        }
        return (right, matcher)
    }

    private func isConstant(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .value, .list: return true
        default: return false
        }
    }

    /// Checks that `op` (with `options`) applies to values of `kind`.
    private func check(
        op: ComparisonOperator, options: StringComparisonOptions, leftKind: QueryKind?, left: PredicateOperand,
        offset: Int
    ) throws {
        guard let kind = leftKind else { return }
        if !options.isEmpty, !kind.isTextual {
            throw error("[c] and [d] apply to strings and data, but '\(left.text)' is \(kind)", offset)
        }
        let valid: Bool
        switch op {
        case .equal, .notEqual, .in: valid = true
        case .less, .lessOrEqual, .greater, .greaterOrEqual: valid = kind.isOrdered
        case .between: valid = kind.isNumeric || kind == .date || kind == .objectId || kind == .mixed
        case .beginsWith, .endsWith, .contains, .like: valid = kind.isTextual
        case .text: valid = kind == .string
        }
        guard valid else {
            throw error("'\(op.rawValue)' does not apply to '\(left.text)', which is \(kind)", offset)
        }
    }

    /// Checks the constants on the right against the left side's kind, converting them where needed.
    private func checkRight(
        _ right: BoundOperand, _ source: PredicateOperand, leftKind: QueryKind?, op: ComparisonOperator,
        storesFloat: Bool, offset: Int
    ) throws -> BoundOperand {
        guard let leftKind else { return right }
        if leftKind == .mixed { return mixedConstants(right, source) }
        try checkObjects(in: source, leftKind: leftKind, offset: offset)
        switch right {
        case .value(let value):
            return .value(try convert(value, to: leftKind, op: op, storesFloat: storesFloat, offset: offset))
        case .list(let values):
            return .list(try values.map {
                try convert($0, to: leftKind, op: op, storesFloat: storesFloat, offset: offset)
            })
        default:
            if let rightKind = try kind(of: right, source), !compatible(leftKind, rightKind) {
                throw error("cannot compare \(leftKind) with \(rightKind) ('\(source.text)')", offset)
            }
            return right
        }
    }

    /// Object arguments must be objects of the model the key path links to.
    private func checkObjects(in source: PredicateOperand, leftKind: QueryKind, offset: Int) throws {
        func check(_ value: QueryValue) throws {
            if case .object(let model, _) = value, leftKind != .object(model) {
                throw error("cannot compare \(leftKind) with an object of \(model)", offset)
            }
        }
        switch source {
        case .value(.list(let items)): try items.forEach(check)
        case .value(let value): try check(value)
        case .list(let items):
            for case .value(let value) in items { try check(value) }
        default: return
        }
    }

    private func compatible(_ a: QueryKind, _ b: QueryKind) -> Bool {
        a == b || (a.isNumeric && b.isNumeric) || a == .mixed || b == .mixed
    }

    /// The constants compared with a mixed value, as they are (a mixed value may hold any kind), but for objects:
    /// a mixed value links to an object of any model, so an object argument becomes its table and key.
    private func mixedConstants(_ right: BoundOperand, _ source: PredicateOperand) -> BoundOperand {
        func constant(_ value: QueryValue) -> QueryScalar {
            if case .object(let model, let key) = value, let binding = schema.model(named: model) {
                return .typedObject(binding.tableKey, ObjectKey(key))
            }
            return QueryScalar(value)
        }
        switch (right, source) {
        case (.value, .value(let value)): return .value(constant(value))
        case (.list, .value(.list(let items))): return .list(items.map(constant))
        case (.list(let bound), .list(let items)) where bound.count == items.count:
            return .list(zip(bound, items).map { scalar, item in
                if case .value(let value) = item { return constant(value) }
                return scalar
            })
        default: return right
        }
    }

    /// A constant as a value of `kind`, or an error naming it. A number compared with `float` values is rounded to
    /// a `Float` first, as Realm does: `rating == 1.1` matches a stored `Float(1.1)`, which no double near 1.1
    /// equals once widened.
    private func convert(
        _ value: QueryScalar, to kind: QueryKind, op: ComparisonOperator, storesFloat: Bool, offset: Int
    ) throws -> QueryScalar {
        switch (value, kind) {
        case (.null, _): return .null
        case (.double(let number), .floating) where storesFloat: return .double(Double(Float(number)))
        case (.int(let number), .floating) where storesFloat: return .double(Double(Float(number)))
        case (.int(let number), .bool) where number == 0 || number == 1: return .bool(number == 1)
        case (.bool, .bool), (.int, .integer), (.double, .floating), (.string, .string), (.data, .data),
             (.timestamp, .date), (.uuid, .uuid), (.object, .object):
            guard case .object = kind, !(op == .equal || op == .notEqual || op == .in) else { return value }
            throw error("'\(op.rawValue)' does not apply to objects; compare them with == or !=", offset)
        case (.int(let number), .floating): return .double(Double(number))
        case (.double, .integer): return value
        case (.decimal, .decimal), (.objectId, .objectId), (.decimal, .integer), (.decimal, .floating): return value
        case (.int, .decimal), (.double, .decimal):
            guard let decimal = value.decimalValue else { throw error("cannot compare decimal with \(describe(value))", offset) }
            return .decimal(decimal)
        case (.string(let text), .decimal):
            guard let decimal = Decimal(string: text), DecimalSyntax.isValid(text) else {
                throw error("\"\(text)\" is not a decimal number", offset)
            }
            return .decimal(decimal)
        case (.string(let text), .objectId):
            guard let id = ObjectId(text) else { throw error("\"\(text)\" is not an ObjectId (24 hexadecimal digits)", offset) }
            return .objectId(id)
        case (.string(let text), .uuid):
            guard let uuid = UUID(uuidString: text) else {
                throw error("\"\(text)\" is not a UUID", offset)
            }
            return .uuid(uuid)
        default:
            throw error("cannot compare \(kind) with \(describe(value))", offset)
        }
    }

    private func describe(_ value: QueryScalar) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let value): return "the bool \(value)"
        case .int(let value): return "the int \(value)"
        case .double(let value): return "the double \(value)"
        case .string(let value): return "the string \"\(value)\""
        case .data(let value): return "data of \(value.count) bytes"
        case .timestamp: return "a date"
        case .uuid(let value): return "the UUID \(value)"
        case .object, .typedObject: return "an object"
        case .decimal(let value): return "the decimal \(value)"
        case .objectId(let value): return "the ObjectId \(value)"
        }
    }

    // MARK: - Operands

    private func bind(_ operand: PredicateOperand) throws -> BoundOperand {
        switch operand {
        case .value(let value):
            if case .list(let values) = value { return .list(values.map(QueryScalar.init)) }
            return .value(QueryScalar(value))
        case .list(let items):
            return .list(try items.map { item -> QueryScalar in
                guard case .value(let value) = item, !isList(value) else {
                    throw error("a list {…} may only hold constants and arguments", offsetOf(item))
                }
                return QueryScalar(value)
            })
        case .keyPath(let root, let components, let offset):
            return .path(try resolve(root: root, components, offset: offset))
        case .aggregate(let root, let collection, let function, let property, let offset):
            let path = try resolve(root: root, collection, offset: offset)
            guard path.isToMany else {
                throw error("@\(function.rawValue) needs a list, set, map or linking objects, but '\(path.text)' holds one value", offset)
            }
            guard path.toManySteps == 1 else {
                throw error("'\(path.text)' goes through several lists; @\(function.rawValue) needs one list or "
                            + "linking objects (ANY, ALL and NONE compare the values of several)", offset)
            }
            var propertyPath: BoundPath?
            if !property.isEmpty {
                guard case .object(let target) = path.kind, let element = schema.model(named: target) else {
                    throw error("'\(path.text)' holds \(path.kind) values, which have no property '\(property.joined(separator: "."))'", offset)
                }
                let inner = PredicateBinder(predicate: predicate, schema: schema, model: element, arguments: arguments)
                let resolved = try inner.resolve(root: .object, property, offset: offset)
                guard !resolved.isToMany else {
                    throw error("@\(function.rawValue).\(resolved.text) must name a single value of each element", offset)
                }
                propertyPath = resolved
            }
            if function != .count {
                let kind = propertyPath?.kind ?? path.kind
                let valid = function == .min || function == .max ? kind.isNumeric || kind == .date : kind.isNumeric
                guard valid else {
                    throw error("@\(function.rawValue) needs numbers\(function == .min || function == .max ? " or dates" : ""), "
                                + "but '\(propertyPath?.text ?? path.text)' is \(kind)", offset)
                }
                if propertyPath == nil, case .object = path.kind {
                    throw error("@\(function.rawValue) over objects needs a property, as in '\(path.text).@\(function.rawValue).age'", offset)
                }
            }
            return .aggregate(collection: path, function: function, property: propertyPath)
        case .subqueryCount(let root, let collection, let variable, let inner, let offset):
            let path = try resolve(root: root, collection, offset: offset)
            guard path.isToMany else {
                throw error("SUBQUERY needs a list, set, map or linking objects, but '\(path.text)' holds one value", offset)
            }
            guard path.toManySteps == 1 else {
                throw error("'\(path.text)' goes through several lists; SUBQUERY needs one list or linking objects, "
                            + "as in SUBQUERY(parents, $p, ANY $p.parents.name == 'x')", offset)
            }
            var scoped = self
            if case .object(let target) = path.kind, let element = schema.model(named: target) {
                scoped.variables[variable] = .object(element)
            } else {
                scoped.variables[variable] = .primitive(path)
            }
            return .subqueryCount(collection: path, variable: variable, predicate: try scoped.bind(inner))
        case .argument, .keyPathTemplate:
            // Comparisons substitute their arguments before binding their operands; this keeps any other caller
            // just as correct.
            let substituted = arguments.substituting(operand)
            switch substituted {
            case .argument(let slot):
                throw error("no argument was given for '%\(slot.letter)'", slot.offset)
            case .keyPathTemplate(_, _, let offset):
                throw error("no key path argument was given for a %K of '\(substituted.text)'", offset)
            default:
                return try bind(substituted)
            }
        }
    }

    private func isList(_ value: QueryValue) -> Bool {
        if case .list = value { return true }
        return false
    }

    private func offsetOf(_ operand: PredicateOperand) -> Int {
        switch operand {
        case .keyPath(_, _, let offset), .aggregate(_, _, _, _, let offset), .subqueryCount(_, _, _, _, let offset),
             .keyPathTemplate(_, _, let offset):
            return offset
        case .argument(let slot): return slot.offset
        default: return 0
        }
    }

    /// The kind of values an operand yields (`nil` for constants, which take the other side's kind).
    private func kind(of operand: BoundOperand, _ source: PredicateOperand) throws -> QueryKind? {
        switch operand {
        case .value, .list: return nil
        case .path(let path): return path.kind
        case .aggregate(let collection, let function, let property):
            switch function {
            case .count: return .integer
            case .avg: return .floating
            case .sum, .min, .max: return property?.kind ?? collection.kind
            }
        case .subqueryCount: return .integer
        }
    }

    // MARK: - Key paths

    /// Resolves `components` from the tested object (or a SUBQUERY variable).
    func resolve(root: KeyPathRoot, _ components: [String], offset: Int) throws -> BoundPath {
        var current: ModelBinding
        var kind: QueryKind
        switch root {
        case .object:
            current = model
            kind = .object(model.name)
        case .variable(let name):
            switch variables[name] {
            case .object(let element):
                current = element
                kind = .object(element.name)
            case .primitive(let list):
                guard components.isEmpty else {
                    throw error("$\(name) is a \(list.kind) value and has no property '\(components[0])'", offset)
                }
                return BoundPath(
                    root: root, steps: [], kind: list.kind, isToMany: false, text: "$\(name)", valueType: list.valueType)
            case nil:
                throw error("unknown variable $\(name); only a SUBQUERY introduces variables", offset)
            }
        }
        var steps: [PathStep] = []
        var toManySteps = 0
        var valueType: PropertyType?
        // The path so far, joined with dots, for messages and `explain` (a one-property path is its name, no copy).
        var text = ""
        if case .variable(let name) = root { text = "$" + name }
        /// The map the previous component named: the next one may read its keys, its values or one key.
        var map: (model: ModelBinding, column: Int)?
        for (position, name) in components.enumerated() {
            let parent = text
            text = MapPathComponent.text([text, name].filter { !$0.isEmpty })
            if let (mapModel, mapColumn) = map {
                map = nil
                if name == MapPathComponent.allValues { continue }
                steps.removeLast()
                if name == MapPathComponent.allKeys {
                    steps.append(.mapKeys(model: mapModel, column: mapColumn))
                    kind = .string
                    valueType = .string
                    continue
                }
                // `map['key']` or `map.key`: one value, nil when the key is missing.
                let key = MapPathComponent.key(of: name) ?? name
                steps.append(.mapValue(model: mapModel, column: mapColumn, key: key))
                toManySteps -= 1
                // A missing key reads as nil, whatever the map's values are.
                if let type = valueType, !type.isOptional { valueType = .optional(type) }
                if case .object(let target) = kind, position < components.count - 1 {
                    guard let next = schema.model(named: target) else {
                        throw error("'\(parent)' links to \(target), which this database does not include", offset)
                    }
                    current = next
                }
                continue
            }
            if name.hasPrefix("[") || name == MapPathComponent.allKeys || name == MapPathComponent.allValues {
                throw error("'\(parent)' is not a map, so '\(text)' cannot read a key of it", offset)
            }
            if position > 0 {
                guard case .object = kind else {
                    throw error("'\(parent)' is \(kind) and has no property '\(name)'", offset)
                }
            }
            if let column = current.column(named: name) {
                steps.append(.property(model: current, column: column))
                let type = current.description.properties[column].type
                let (propertyKind, many) = Self.kind(of: type)
                if many { toManySteps += 1 }
                switch type {
                case .list(let element), .set(let element), .map(let element): valueType = element
                default: valueType = type
                }
                kind = propertyKind
                if case .map = current.description.properties[column].type { map = (current, column) }
            } else if let inverse = current.description.linkingObjects.first(where: { $0.name == name }),
                      case .linkingObjects(let sourceName, let sourceProperty) = inverse.type,
                      let source = schema.model(named: sourceName), let column = source.column(named: sourceProperty) {
                steps.append(.linkingObjects(target: current, source: source, column: column))
                toManySteps += 1
                valueType = nil
                kind = .object(source.name)
            } else {
                let known = current.description.properties.map(\.name) + current.description.linkingObjects.map(\.name)
                let suggestion = PredicateParser.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw error("unknown property '\(name)' of \(current.name)\(suggestion)", offset)
            }
            if case .object(let target) = kind, position < components.count - 1 {
                guard let next = schema.model(named: target) else {
                    throw error("'\(name)' links to \(target), which this database does not include", offset)
                }
                current = next
            }
        }
        return BoundPath(
            root: root, steps: steps, kind: kind, isToMany: toManySteps > 0, text: text, valueType: valueType,
            toManySteps: toManySteps)
    }

    /// A property type's query kind and whether it holds several values.
    private static func kind(of type: PropertyType) -> (QueryKind, Bool) {
        switch type {
        case .bool: return (.bool, false)
        case .integer: return (.integer, false)
        case .float, .double: return (.floating, false)
        case .string, .enumeration: return (.string, false)
        case .date: return (.date, false)
        case .data: return (.data, false)
        case .uuid: return (.uuid, false)
        case .link(let target): return (.object(target), false)
        case .optional(let wrapped): return kind(of: wrapped)
        case .list(let element), .set(let element), .map(let element): return (kind(of: element).0, true)
        case .linkingObjects(let source, _): return (.object(source), true)
        case .decimal: return (.decimal, false)
        case .objectId: return (.objectId, false)
        case .any: return (.mixed, false)
        }
    }

    // MARK: - Messages

    private func error(_ message: String, _ offset: Int) -> StrataError {
        .invalidPredicate(predicate: predicate, offset: offset, message: message)
    }
}

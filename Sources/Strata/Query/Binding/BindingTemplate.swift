import StrataStorage
import Synchronization

/// A predicate string bound to one model once, rebound to each call's arguments by changing only the
/// comparisons whose right side is a placeholder.
///
/// Binding resolves every key path against the schema and checks every operator, which costs as much as the
/// index lookup of a `filter("name == %@", x)` in a loop; none of it depends on the arguments when each
/// placeholder is the right side of `keyPath op %@`. Such a predicate keeps the tree it was first bound to and
/// replaces, per call, the right side (checked and converted as a fresh binding does) and string matcher of
/// those comparisons. A predicate with a placeholder anywhere else (`%K`, inside `{…}`, `BETWEEN %@`, a constant
/// on the left, in a SUBQUERY) is bound afresh on every call.
///
/// A class, immutable once made, so that taking a kept template out of ``BindingTemplates`` costs one retain
/// rather than a copy of both trees.
final class BindingTemplate {
    /// The parse the tree was bound from.
    let parsed: ParsedPredicate
    /// The tree as first bound (with the first call's arguments).
    let bound: BoundPredicate

    /// The tree when it is one `stringKeyPath == %@` (or `!=`) without options: the shape of a lookup in a loop,
    /// rebound by ``reboundDirectly(to:)`` without converting arguments or checking the comparison again.
    private let loneStringEquality: BoundComparison?
    /// For a lone `stringProperty == %@` on a property of the tested object itself (not through a link or a
    /// list): its column, which the rebound filter's ``LookupHint`` reads from the property's index.
    private let equalityColumns: [ColumnKey]?

    init(parsed: ParsedPredicate, bound: BoundPredicate) {
        self.parsed = parsed
        self.bound = bound
        let lone = Self.loneStringEquality(parsed, bound)
        loneStringEquality = lone
        if let lone, lone.op == .equal, case .path(let path) = lone.left, let (model, column) = path.rootColumn {
            equalityColumns = [model.columns[column]]
        } else {
            equalityColumns = nil
        }
    }

    private static func loneStringEquality(_ parsed: ParsedPredicate, _ bound: BoundPredicate) -> BoundComparison? {
        guard parsed.slots.count == 1, parsed.slots[0].letter == "@", parsed.slots[0].index == 0,
            case .comparison(let written) = parsed.node, case .argument = written.right,
            case .comparison(let comparison) = bound, case .path(let path) = comparison.left, path.kind == .string,
            comparison.op == .equal || comparison.op == .notEqual, comparison.options.isEmpty
        else { return nil }
        return comparison
    }

    /// The tree bound to `arguments` when it is a lone string equality and the one argument a string, with the
    /// ``LookupHint`` of an equality on the tested object's own property; `nil` otherwise (the caller then
    /// rebinds through ``rebound(to:with:)``).
    ///
    /// A fresh binding would check nothing more here: a string fits a string key path, `==` and `!=` apply to
    /// strings, and without options they compare bytes, with no string matcher.
    func reboundDirectly(to arguments: [Any]) -> BoundFilter? {
        guard var comparison = loneStringEquality, arguments.count == 1, let text = arguments[0] as? String else {
            return nil
        }
        comparison.right = .value(.string(text))
        comparison.written.right = .value(.string(text))
        comparison.matcher = nil
        return BoundFilter(
            predicate: .comparison(comparison),
            hint: equalityColumns.map { LookupHint(columns: $0, value: .string(text)) })
    }

    /// The ``LookupHint`` of a lone `stringProperty == %@` for `arguments` (one string); `nil` for any other
    /// predicate or argument.
    func hint(for arguments: [Any]) -> LookupHint? {
        guard let equalityColumns, arguments.count == 1, let text = arguments[0] as? String else { return nil }
        return LookupHint(columns: equalityColumns, value: .string(text))
    }

    /// Whether every placeholder of `node` is the right side of a `keyPath op %@` comparison (any letter but
    /// `%K`, any operator but `BETWEEN`), the only place a rebinding changes.
    static func canRebind(_ node: PredicateNode) -> Bool {
        switch node {
        case .constant: return true
        case .not(let inner): return canRebind(inner)
        case .and(let terms), .or(let terms): return terms.allSatisfy(canRebind)
        case .comparison(let comparison):
            if case .argument(let slot) = comparison.right {
                guard case .keyPath = comparison.left, slot.letter != "K", comparison.op != .between else { return false }
                return true
            }
            return !holdsArgument(comparison.left) && !holdsArgument(comparison.right)
        }
    }

    private static func holdsArgument(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .argument, .keyPathTemplate: return true
        case .list(let items): return items.contains(where: holdsArgument)
        case .subqueryCount(_, _, _, let predicate, _): return holdsArgument(predicate)
        case .keyPath, .value, .aggregate: return false
        }
    }

    private static func holdsArgument(_ node: PredicateNode) -> Bool {
        switch node {
        case .constant: return false
        case .not(let inner): return holdsArgument(inner)
        case .and(let terms), .or(let terms): return terms.contains(where: holdsArgument)
        case .comparison(let comparison): return holdsArgument(comparison.left) || holdsArgument(comparison.right)
        }
    }

    /// The tree bound to `arguments` (converted for `parsed`'s slots) by `binder`.
    ///
    /// - Throws: `StrataError.invalidPredicate` when an argument does not suit its comparison, as a fresh
    ///   binding would.
    func rebound(to arguments: PredicateArguments, with binder: PredicateBinder) throws -> BoundPredicate {
        try bound.fold(Rebinder(written: parsed.node, arguments: arguments, binder: binder))
    }

    /// Rebinds a bound tree node by node beside the parse it was bound from (`written`): binding keeps the parse's
    /// shape, so each bound node has its written node, and only comparisons written `keyPath op %@` change.
    private struct Rebinder: BoundPredicateVisitor {
        typealias Failure = any Error
        /// The parse of the node being rebound.
        let written: PredicateNode
        let arguments: PredicateArguments
        let binder: PredicateBinder

        /// The same rebinding for a sub-predicate written as `node`.
        private func at(_ node: PredicateNode) -> Rebinder {
            Rebinder(written: node, arguments: arguments, binder: binder)
        }

        func constant(_ value: Bool) -> BoundPredicate { .constant(value) }

        func comparison(_ comparison: BoundComparison) throws -> BoundPredicate {
            guard case .comparison(let parsed) = written else { return try binder.bind(written) }
            guard case .argument(let slot) = parsed.right else { return .comparison(comparison) }
            guard slot.index < arguments.values.count, case .value(let value) = arguments.values[slot.index] else {
                // `canRebind` admits no `%K`, and the arguments were converted for these very slots.
                return try binder.bind(written)
            }
            var comparison = comparison
            try binder.rebind(&comparison, to: value)
            return .comparison(comparison)
        }

        func not(_ inner: FoldedTerm<Self>) throws -> BoundPredicate {
            guard case .not(let parsed) = written else { return try binder.bind(written) }
            return .not(try inner.predicate.fold(at(parsed)))
        }

        func and(_ terms: FoldedTerms<Self>) throws -> BoundPredicate {
            guard case .and(let parsed) = written else { return try binder.bind(written) }
            return .and(try zip(terms, parsed).map { term, node in try term.predicate.fold(at(node)) })
        }

        func or(_ terms: FoldedTerms<Self>) throws -> BoundPredicate {
            guard case .or(let parsed) = written else { return try binder.bind(written) }
            return .or(try zip(terms, parsed).map { term, node in try term.predicate.fold(at(node)) })
        }
    }
}

/// A predicate string bound for one call, with the hint that lets the query skip planning when it has one.
struct BoundFilter {
    let predicate: BoundPredicate
    let hint: LookupHint?
}

/// The binding templates of one database, by model and predicate string, bounded as ``PredicateCache`` is.
///
/// Kept by the database (not shared between databases): a template holds the model bindings its key paths
/// resolved to. A lock guards it because a frozen database, and so its results' `filter`, may be used from any
/// thread.
final class BindingTemplates: Sendable {
    /// How many templates are kept at most; when full, the cache starts over.
    let capacity: Int
    private let state: Mutex<State>

    /// The kept templates, and the one used last: a lookup in a loop asks for the same predicate string each
    /// time, which comparing the strings (equal storage compares at once) finds without hashing the string.
    private struct State {
        var entries: [Key: Entry] = [:]
        var recent: (key: Key, entry: Entry)?

        /// The template kept for `key`, remembered as the one used last.
        mutating func entry(for key: Key) -> Entry? {
            if let recent, recent.key == key { return recent.entry }
            guard let entry = entries[key] else { return nil }
            recent = (key, entry)
            return entry
        }
    }

    private struct Key: Hashable {
        let model: Int
        let format: String
    }

    /// A template with the model binding it belongs to, compared by identity on use.
    private struct Entry: @unchecked Sendable {
        // Only created and read under the lock; the template's model bindings are immutable once bound.
        let model: ObjectIdentifier
        let template: BindingTemplate
    }

    init(capacity: Int = 128) {
        self.capacity = Swift.max(1, capacity)
        state = Mutex(State())
    }

    /// The predicate string `format` bound for `model` to `arguments`: rebound from a template when one is kept
    /// (which holds its parse, so the shared ``PredicateCache`` is not asked either), else parsed (through the
    /// cache) and bound afresh, and kept as a template when ``BindingTemplate/canRebind(_:)`` allows.
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the offending token: malformed syntax, an argument that
    ///   does not fit its placeholder or its comparison, an unknown property, as ``PredicateBinder/bind(_:)``.
    func bind(_ format: String, arguments: [Any], model: ModelBinding, schema: SchemaBinding) throws -> BoundPredicate {
        try bindFilter(format, arguments: arguments, model: model, schema: schema).predicate
    }

    /// ``bind(_:arguments:model:schema:)`` with the ``LookupHint`` of a rebound lone string equality.
    func bindFilter(
        _ format: String, arguments: [Any], model: ModelBinding, schema: SchemaBinding
    ) throws -> BoundFilter {
        let key = Key(model: model.index, format: format)
        let identity = ObjectIdentifier(model)
        if let kept = state.withLock({ $0.entry(for: key) }), kept.model == identity {
            if let bound = kept.template.reboundDirectly(to: arguments) { return bound }
            let parsed = kept.template.parsed
            let values = try parsed.arguments(arguments)
            let binder = PredicateBinder(predicate: format, schema: schema, model: model, arguments: values)
            return BoundFilter(predicate: try kept.template.rebound(to: values, with: binder), hint: nil)
        }
        let parsed = try PredicateCache.shared.parsed(format)
        let values = try parsed.arguments(arguments)
        let bound = try PredicateBinder(predicate: format, schema: schema, model: model, arguments: values)
            .bind(parsed.node)
        guard BindingTemplate.canRebind(parsed.node) else { return BoundFilter(predicate: bound, hint: nil) }
        let template = BindingTemplate(parsed: parsed, bound: bound)
        let entry = Entry(model: identity, template: template)
        state.withLock { state in
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = entry
            state.recent = (key, entry)
        }
        // The first call gets the hint its rebindings will get.
        return BoundFilter(predicate: bound, hint: template.hint(for: arguments))
    }

    /// How many templates are kept now.
    var count: Int { state.withLock { $0.entries.count } }
}

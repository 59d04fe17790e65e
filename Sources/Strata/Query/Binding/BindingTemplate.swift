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
/// A class, immutable once made, so that taking a kept template out of ``QueryPlanCache`` costs one retain
/// rather than a copy of both trees.
final class BindingTemplate {
    /// The parse the tree was bound from.
    let parsed: ParsedPredicate
    /// The tree as first bound (with the first call's arguments).
    let bound: BoundPredicate

    /// The tree when it is one `stringKeyPath == %@` (or `!=`) without options: the shape of a lookup in a loop,
    /// rebound by ``reboundDirectly(to:)`` without converting arguments or checking the comparison again.
    private let loneStringEquality: BoundComparison?
    /// Whether ``loneStringEquality`` is an `==` (not `!=`): asked on every call, without copying the comparison.
    /// A string argument is then the whole filter (``loneEqualityPredicate(_:)``).
    let isLoneEquality: Bool
    /// The plan of this shape, reused by every filter made from the template (see ``CachedPlan``).
    let plan = CachedPlan()

    init(parsed: ParsedPredicate, bound: BoundPredicate) {
        self.parsed = parsed
        self.bound = bound
        let comparison = Self.loneStringEquality(parsed, bound)
        loneStringEquality = comparison
        isLoneEquality = comparison?.op == .equal
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
    /// string as an index stores it when the comparison is `==` (what ``CachedPlan/equalityChoice(_:table:)``
    /// looks up without reading the tree again); `nil` otherwise (the caller then rebinds through
    /// ``rebound(to:with:)``).
    ///
    /// A fresh binding would check nothing more here: a string fits a string key path, `==` and `!=` apply to
    /// strings, and without options they compare bytes, with no string matcher.
    func reboundDirectly(to arguments: [Any]) -> (predicate: BoundPredicate, equalTo: StorageValue?)? {
        guard let comparison = loneStringEquality, arguments.count == 1, let text = arguments[0] as? String else {
            return nil
        }
        return (Self.rebound(comparison, to: text), comparison.op == .equal ? .string(text) : nil)
    }

    /// The argument of a call when this is a lone `stringKeyPath == %@` (not `!=`) and the one argument a string:
    /// the filter is then ``loneEqualityPredicate(_:)`` of it, which a query builds only when something reads its
    /// predicate (see ``LoneEquality``). `nil` otherwise.
    func loneEqualityArgument(_ arguments: [Any]) -> String? {
        guard isLoneEquality, arguments.count == 1 else { return nil }
        return arguments[0] as? String
    }

    /// The tree bound to `text` for a template whose ``loneEqualityArgument(_:)`` gave `text`.
    func loneEqualityPredicate(_ text: String) -> BoundPredicate {
        guard let comparison = loneStringEquality else {
            preconditionFailure("Strata: a lone equality was made from a template that is not one")
        }
        return Self.rebound(comparison, to: text)
    }

    /// `comparison` (a lone string equality) with `text` on its right, as a fresh binding would make it.
    private static func rebound(_ comparison: BoundComparison, to text: String) -> BoundPredicate {
        var comparison = comparison
        comparison.right = .value(.string(text))
        comparison.written.right = .value(.string(text))
        comparison.matcher = nil
        return .comparison(comparison)
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


/// What one walk over a ``BoundPredicate`` computes at each kind of node: the one place that switches over a
/// predicate's cases is ``BoundPredicate/fold(_:)``, and each walk (the text for `explain`, compiling a column
/// scan, evaluating an object, rebinding arguments, checking which columns a predicate reads) is a visitor.
///
/// A compound node receives its sub-predicates as ``FoldedTerm``s whose results are folded on demand, so a visitor
/// can stop early (an evaluation stops at the first false term of an AND) or look at a term before folding it.
/// A visitor that cannot fail leaves `Failure` as `Never`, and its callers need no `try`.
protocol BoundPredicateVisitor {
    /// What the walk computes for each node.
    associatedtype Result
    /// The error the walk can throw (`Never` when it cannot fail).
    associatedtype Failure: Error = Never

    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    func constant(_ value: Bool) throws(Failure) -> Result
    /// One comparison (a leaf of the tree).
    func comparison(_ comparison: BoundComparison) throws(Failure) -> Result
    /// `NOT inner`.
    func not(_ inner: FoldedTerm<Self>) throws(Failure) -> Result
    /// The terms of an AND, in order.
    func and(_ terms: FoldedTerms<Self>) throws(Failure) -> Result
    /// The terms of an OR, in order.
    func or(_ terms: FoldedTerms<Self>) throws(Failure) -> Result
}

extension BoundPredicate {
    /// Walks the predicate with `visitor`: the visitor's result for this node, from its sub-predicates' results
    /// (each folded when the visitor asks for it).
    func fold<Visitor: BoundPredicateVisitor>(_ visitor: Visitor) throws(Visitor.Failure) -> Visitor.Result {
        switch self {
        case .constant(let value): return try visitor.constant(value)
        case .comparison(let comparison): return try visitor.comparison(comparison)
        case .not(let inner): return try visitor.not(FoldedTerm(predicate: inner, visitor: visitor))
        case .and(let terms): return try visitor.and(FoldedTerms(terms: terms, visitor: visitor))
        case .or(let terms): return try visitor.or(FoldedTerms(terms: terms, visitor: visitor))
        }
    }
}

/// A sub-predicate as a visitor sees it: the predicate itself, and its result, folded when asked for.
struct FoldedTerm<Visitor: BoundPredicateVisitor> {
    /// The sub-predicate.
    let predicate: BoundPredicate
    /// The walk in progress.
    let visitor: Visitor

    /// The sub-predicate folded with the same visitor.
    func result() throws(Visitor.Failure) -> Visitor.Result {
        try predicate.fold(visitor)
    }
}

/// The terms of an AND or an OR as a visitor sees them: a collection of ``FoldedTerm``s, made without copying
/// the terms, each folded only when its result is asked for.
struct FoldedTerms<Visitor: BoundPredicateVisitor>: RandomAccessCollection {
    /// The terms.
    let terms: [BoundPredicate]
    /// The walk in progress.
    let visitor: Visitor

    var startIndex: Int { terms.startIndex }
    var endIndex: Int { terms.endIndex }

    subscript(position: Int) -> FoldedTerm<Visitor> {
        FoldedTerm(predicate: terms[position], visitor: visitor)
    }

    /// Every term's result, in order.
    func results() throws(Visitor.Failure) -> [Visitor.Result] {
        var results: [Visitor.Result] = []
        results.reserveCapacity(terms.count)
        for term in terms { results.append(try term.fold(visitor)) }
        return results
    }
}

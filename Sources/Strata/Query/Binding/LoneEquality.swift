import StrataStorage

/// A query's one filter when it is a lone `stringProperty == %@` rebound from a cached shape: the shape's template
/// and the call's string, kept instead of the bound predicate.
///
/// `filter("name == %@", name)` in a loop evaluates the filter through its plan's index lookup
/// (``CachedPlan/equalityChoice(_:table:)``) and never reads the predicate; building it on every call (a copy of
/// the template's comparison with the new string, its box, and the one-element filter array) cost as much as the
/// rest of the call's object layer. ``ObjectQuery/filters`` builds it from here when something asks (a scan
/// without the index, `explain`, an observer, a second filter).
struct LoneEquality {
    /// The cached shape the filter was bound from (``BindingTemplate/loneEqualityArgument(_:)`` accepted it).
    let template: BindingTemplate
    /// The call's argument.
    let text: String

    /// The filter as a bound predicate, the same a rebinding of the template to ``text`` gives.
    var predicate: BoundPredicate { template.loneEqualityPredicate(text) }
}

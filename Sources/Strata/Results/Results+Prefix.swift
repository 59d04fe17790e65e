import StrataStorage

extension Results {
    /// The first `maxLength` objects of these results (all of them when there are fewer), as results: still lazy,
    /// still live and observable, and computing only what they return.
    ///
    /// Unsorted, the query stops scanning (or checking an index's candidates) after `maxLength` matches. Sorted,
    /// each match's sort values are read once and a heap of `maxLength` keeps the best so far: a top-10 over a
    /// million matches sorts ten objects, not a million. The limit is always the last step: filters, `distinct`
    /// and `sorted` added to prefixed results apply before it (`results.prefix(10).sorted(byKeyPath: "age")` is
    /// the ten youngest, as SQL's `ORDER BY … LIMIT 10`), and prefixing again keeps the smaller limit.
    ///
    /// ```swift
    /// let newest = db.objects(Note.self).sorted(byKeyPath: "created", ascending: false).prefix(20)
    /// ```
    ///
    /// This hides `Collection.prefix(_:)` (a `Slice` of the computed keys) when called on a `Results`.
    public func prefix(_ maxLength: Int) -> Results<Element> {
        precondition(maxLength >= 0, "Results.prefix(_:) needs a length of 0 or more, not \(maxLength)")
        var query = self.query
        query.limit = Swift.min(query.limit ?? maxLength, maxLength)
        return with(query)
    }

    /// The limit a ``prefix(_:)`` set, or `nil` for results without one.
    public var limit: Int? { query.limit }
}

import StrataStorage

extension ObjectQuery {
    /// This query with one more filter: the predicate string `format` bound for `model` to `arguments` through
    /// `plans` (``QueryPlanCache``), with its shape's plan when it is the query's one filter, kept unbuilt when
    /// it is a lone `stringProperty == %@` (see ``LoneEquality``). What `Results.filter(_:arguments:)` makes.
    ///
    /// Not generic: `Results` is, and a loop in an app's module calls its `filter` unspecialized, so the copies
    /// and destroys of the query made there went through value-witness calls, one per field.
    ///
    /// `owned` as ``QueryPlanCache/bind(_:arguments:model:schema:owned:)`` takes it.
    ///
    /// - Throws: `StrataError.invalidPredicate`, as ``QueryPlanCache/bind(_:arguments:model:schema:owned:)``.
    func filtered(
        by format: String, arguments: [Any], plans: QueryPlanCache, model: ModelBinding, schema: SchemaBinding,
        owned: Bool
    ) throws -> ObjectQuery {
        with(try plans.bind(format, arguments: arguments, model: model, schema: schema, owned: owned))
    }

    /// ``filtered(by:arguments:plans:model:schema:owned:)`` for one string argument, passed as it is
    /// (``QueryPlanCache/bind(_:text:model:schema:owned:)``).
    func filtered(
        by format: String, text: String, plans: QueryPlanCache, model: ModelBinding, schema: SchemaBinding,
        owned: Bool
    ) throws -> ObjectQuery {
        with(try plans.bind(format, text: text, model: model, schema: schema, owned: owned))
    }

    /// This query with one more filter, `bound`.
    private func with(_ bound: BoundFilter) -> ObjectQuery {
        var query = self
        // The shape's plan stands for the whole query only when this is its one filter.
        if query.filterCount == 0 {
            query.planSlot = PlanSlot(plan: bound.plan, equalTo: bound.equalTo)
            if let equality = bound.equality {
                query.setLoneEquality(equality)
                return query
            }
        } else {
            query.planSlot = .none
        }
        query.filters.append(bound.predicate)
        return query
    }
}

import StrataStorage

extension ObjectQuery {
    /// `@sum`, `@avg`, `@min` or `@max` of one int, float, double or date column of a table query, computed
    /// cluster by cluster from the column views and the scan's row masks: no key list, no object, no boxed
    /// value; `.null` for an empty average, minimum or maximum. `nil` when the query cannot run that way (a list source, distinct, an index plan, a key path
    /// through a link); the caller then aggregates object by object.
    func columnAggregate(
        _ function: AggregateFunction, of path: BoundPath, in database: Database, model: ModelBinding
    ) throws -> QueryScalar? {
        if let failure { throw failure }
        guard case .table = source, distinctPaths.isEmpty, limit == nil, function != .count,
              let (pathModel, column) = path.rootColumn, pathModel === model
        else { return nil }
        // Column views exist for ints, dates and floating point; decimals are aggregated object by object, exactly.
        guard path.kind == .integer || path.kind == .date || path.kind == .floating else { return nil }
        let evaluator = ObjectEvaluator(database: database)
        let table = try evaluator.table(model)
        let scan: ColumnScan
        if let predicate {
            guard case .scan(let compiled, _) = try plan(predicate, table: table, model: model) else { return nil }
            scan = compiled
        } else {
            scan = .constant(true)
        }
        let columnKey = model.columns[column]
        var count = 0
        var integerSum: Int64 = 0
        var doubleSum = 0.0
        var best: QueryScalar?
        let wantsMinimum = function == .min
        func consider(_ value: QueryScalar) {
            guard let current = best else { return best = value }
            if let order = QueryScalar.order(value, current), wantsMinimum ? order < 0 : order > 0 { best = value }
        }
        try table.forEachCluster { cluster in
            let rows = try scan.rows(of: cluster, evaluator: evaluator)
            switch path.kind {
            case .integer, .date:
                let values = try cluster.intColumn(columnKey)
                rows.forEachSetRow { row in
                    guard !values.nulls.isNull(row) else { return }
                    let value = values[row]
                    count += 1
                    integerSum &+= value
                    doubleSum += Double(value)
                    if function == .min || function == .max { consider(path.kind == .date ? .timestamp(value) : .int(value)) }
                }
            case .floating:
                let values = try cluster.doubleColumn(columnKey)
                rows.forEachSetRow { row in
                    guard !values.nulls.isNull(row) else { return }
                    let value = values[row]
                    count += 1
                    doubleSum += value
                    if function == .min || function == .max { consider(.double(value)) }
                }
            default:
                return false
            }
            return true
        }
        guard path.kind.isNumeric || path.kind == .date else { return nil }
        switch function {
        case .sum: return path.kind == .integer ? .int(integerSum) : .double(doubleSum)
        case .avg: return count == 0 ? .null : .double(doubleSum / Double(count))
        case .min, .max: return best ?? .null
        case .count: return nil
        }
    }
}

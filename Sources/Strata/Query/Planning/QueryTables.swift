import StrataStorage

/// Where a query reads its models' tables: an open ``Database`` (the version it reads, or its write's), or a
/// ``StoredQuery``'s catalog (a file read from its stored schema, with no app code).
///
/// The planner and the evaluators ask for each model's table once per evaluation (``ObjectEvaluator`` keeps it),
/// so this is never called per object.
protocol QueryTables: AnyObject {
    /// The table of `model` in the version the query reads.
    func table(for model: ModelBinding) throws -> Table
}

extension Database: QueryTables {}

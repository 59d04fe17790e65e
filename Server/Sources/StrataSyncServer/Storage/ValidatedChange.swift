/// An uploaded change checked against the schema, its values converted to column parameters.
struct ValidatedChange: Sendable {
    /// The change as uploaded.
    var change: SyncChange
    /// Its position in the batch, for error messages.
    var index: Int
    /// The model's table.
    var table: ModelTable
    /// The object key as the key column's parameter text.
    var key: String
    /// The clock reading, checked.
    var hlc: HybridTimestamp
    /// For `create`: each scalar value's parameter, by property; for `set`: the one property's.
    var values: [(property: String, type: ColumnType, parameter: String?)]
    /// For collection operations: the collection and the element value's parameter.
    var collection: CollectionTable?
    /// The element's parameter, for `listInsert`, `setAdd`, `setRemove` and `mapSet`.
    var elementParameter: String?

    /// `change 3 (seq 17, Note 42)`: how errors name the change.
    var label: String {
        "change \(index) (seq \(change.seq), \(change.model) \(change.object.canonicalText))"
    }
}

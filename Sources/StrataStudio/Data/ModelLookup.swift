import StrataStorage

/// Finds the table of a model the page names, with an error listing the models when there is none.
enum ModelLookup {
    /// The table of model `name` in `catalog`.
    ///
    /// - Throws: ``StudioError`` 404 naming the file's models.
    static func table(_ name: String, in catalog: Catalog) throws -> Table {
        guard let table = catalog.table(named: name) else {
            let models = catalog.tables.map(\.name).sorted().joined(separator: ", ")
            throw StudioError(404, "the file has no model '\(name)'; its models are \(models)")
        }
        return table
    }

    /// Object `key` of `table`.
    ///
    /// - Throws: ``StudioError`` 404 when the object does not exist (it may have been deleted since the page
    ///   loaded).
    static func object(_ key: Int64, in table: Table) throws -> ObjectKey {
        let objectKey = ObjectKey(key)
        guard try table.contains(objectKey) else {
            throw StudioError(404, "\(table.name) has no object with key \(key) (deleted since the page loaded?)")
        }
        return objectKey
    }
}

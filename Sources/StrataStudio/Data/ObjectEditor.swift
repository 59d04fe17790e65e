import Strata
import StrataStorage

/// The studio's edits, each run by ``StudioDatabase/write(_:)`` inside one write transaction: a value that does
/// not fit its property, a uniqueness rule or a delete rule throws, and the transaction is rolled back, so the
/// file keeps nothing of a refused edit.
///
/// Values arrive in the JSON form `strata export` writes and `strata import` reads (docs/VALUES.md): a link is the
/// linked object's primary key (its stable key when its model has none), a list is an array, a mixed value
/// `{"int": 1}`.
struct ObjectEditor {
    let catalog: Catalog

    /// Sets property `property` of object `key` of `model` to `json`; returns the object's new row.
    func set(model: String, key: Int64, property: String, to json: JSONValue) throws -> JSONValue {
        let table = try ModelLookup.table(model, in: catalog)
        let object = try ModelLookup.object(key, in: table)
        guard let spec = table.column(named: property), spec.type != .backlinks else {
            throw StudioError(400, "\(table.name) has no property '\(property)' that can be set")
        }
        let value = try RowJSONReader(catalog: catalog).convert(json, for: spec, of: table, path: "$.\(property)")
        try table.set(object, column: spec.key, to: value)
        return try RowEncoder(catalog: catalog).row(object, of: table, columns: RowEncoder.visibleColumns(table))
    }

    /// Adds an object of `model` from `json` (a JSON object of property values; the others take their defaults, an
    /// `auto` integer primary key its next value); returns the new object's key.
    func insert(model: String, _ json: JSONValue) throws -> Int64 {
        let table = try ModelLookup.table(model, in: catalog)
        guard !table.isEmbedded else {
            throw StudioError(400, "\(table.name) is embedded: its objects are added inside their owners")
        }
        guard case .object = json else { throw StudioError(400, "a new \(table.name) is a JSON object of its values") }
        if let primaryKey = table.primaryKey.flatMap(table.column), let given = json[primaryKey.name] {
            let value = try RowJSONReader(catalog: catalog).convert(given, for: primaryKey, of: table, path: "$")
            if try table.find(primaryKey: value) != nil {
                throw StrataError.duplicatePrimaryKey(type: table.name, key: "\(value)")
            }
        }
        return try RowJSONReader(catalog: catalog).upsert(json, into: table, path: "$").rawValue
    }

    /// Deletes object `key` of `model` as the file's delete rules say (``DeletePlan``); returns how many objects
    /// went (the object and what it cascaded to).
    func delete(model: String, key: Int64) throws -> Int {
        let table = try ModelLookup.table(model, in: catalog)
        let object = try ModelLookup.object(key, in: table)
        let rules = try SchemaRecordSummary(catalog: catalog).deleteRules
        return try DeletePlan(catalog: catalog, rules: rules).delete(object, of: table)
    }
}

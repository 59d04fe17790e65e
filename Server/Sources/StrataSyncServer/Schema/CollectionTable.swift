/// The link table of one list, set or map property: one row per element.
///
/// Columns: `owner` (the owning object's key), then for a list `element` (its id) and `position` (its position
/// identifier, `COLLATE "C"`), for a set `element` (the value's canonical JSON), for a map `key`; and `value`.
struct CollectionTable: Sendable, Hashable {
    /// Which collection.
    enum Kind: String, Sendable, Hashable {
        case list
        case set
        case map
    }

    /// The property's name.
    var property: String
    /// Which collection it is.
    var kind: Kind
    /// The table's name: `Model.property`.
    var tableName: String
    /// The element type.
    var element: ColumnType
    /// The owning model's key type.
    var ownerKey: ColumnType

    /// The columns after `owner` and before `value`, with their SQL types, which make up the primary key.
    var identityColumns: [(name: String, sql: String)] {
        switch kind {
        case .list: return [("element", "text COLLATE \"C\""), ("position", "text COLLATE \"C\" NOT NULL")]
        case .set: return [("element", "text")]
        case .map: return [("key", "text")]
        }
    }

    /// The `CREATE TABLE IF NOT EXISTS` statement in PostgreSQL schema `schema`.
    func createStatement(schema: String) -> String {
        var columns = ["owner \(ownerKey.sqlType) NOT NULL"]
        columns += identityColumns.map { "\(SQLName.quoted($0.name)) \($0.sql)" }
        columns.append("value \(element.sqlType)")
        let key = kind == .map ? "key" : "element"
        columns.append("PRIMARY KEY (owner, \(key))")
        return "CREATE TABLE IF NOT EXISTS \(SQLName.qualified(schema, tableName)) (\(columns.joined(separator: ", ")))"
    }
}

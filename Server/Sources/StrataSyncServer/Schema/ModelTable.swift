import StrataSchema

/// The typed table of one model: one row per live object, keyed by the primary key (or by `_syncId`, a UUID the
/// creating client chooses, for models without one), one column per scalar property, and a `CollectionTable` per
/// list, set and map property. The embedded objects an object holds are one `jsonb` column per property; embedded
/// models have no table.
struct ModelTable: Sendable, Hashable {
    /// The column that names the object when the model has no primary key.
    static let syncIdColumn = "_syncId"

    /// The model's name, which is also the table's.
    var model: String
    /// The key column's name.
    var keyColumn: String
    /// The key column's type (never nullable).
    var keyType: ColumnType
    /// The scalar properties (the key excluded), in schema order, by name.
    var columns: [(name: String, type: ColumnType)]
    /// The list, set and map properties.
    var collections: [CollectionTable]
    /// The model's `renamedFrom:` in this version.
    var renamedFrom: String?
    /// Property renames of this version: new name to old name.
    var propertyRenames: [String: String]

    /// The scalar column named `name`, if any.
    func column(named name: String) -> ColumnType? {
        columns.first { $0.name == name }?.type
    }

    /// The collection property named `name`, if any.
    func collection(named name: String) -> CollectionTable? {
        collections.first { $0.property == name }
    }

    /// The `CREATE TABLE IF NOT EXISTS` statement in PostgreSQL schema `schema`.
    func createStatement(schema: String) -> String {
        var parts = ["\(SQLName.quoted(keyColumn)) \(keyType.sqlType) PRIMARY KEY"]
        parts += columns.map { "\(SQLName.quoted($0.name)) \($0.type.sqlType)" }
        return "CREATE TABLE IF NOT EXISTS \(SQLName.qualified(schema, model)) (\(parts.joined(separator: ", ")))"
    }

    /// The key type of a model definition: its primary key's type, or a UUID sync id.
    static func keyType(of model: ModelDefinition) -> ColumnType {
        if let primaryKey = model.primaryKey, let property = model.property(named: primaryKey),
            var type = ColumnType.forProperty(property.type.unwrapped, keyType: { _ in nil })
        {
            type.isNullable = false
            return type
        }
        return ColumnType(base: .uuid, isNullable: false)
    }

    /// The table of `model`, given every model's key type and definition by name. A property that holds
    /// embedded objects (a link, list or map of an embedded model) is one `jsonb` column (`EmbeddedShape`).
    init(
        _ model: ModelDefinition, keyType: (String) -> ColumnType?,
        definition: (String) -> ModelDefinition? = { _ in nil }
    ) {
        self.model = model.name
        self.keyColumn = model.primaryKey ?? Self.syncIdColumn
        self.keyType = Self.keyType(of: model)
        self.renamedFrom = model.renamedFrom
        var columns: [(name: String, type: ColumnType)] = []
        var collections: [CollectionTable] = []
        var renames: [String: String] = [:]
        let ownerKey = self.keyType
        for property in model.persistedProperties where property.name != model.primaryKey {
            if let old = property.renamedFrom { renames[property.name] = old }
            if let shape = EmbeddedShape.of(property, definition: definition, keyType: keyType) {
                columns.append((property.name, ColumnType(base: .embedded(shape), isNullable: shape.holder == .single)))
                continue
            }
            let kind: CollectionTable.Kind?
            switch property.type {
            case .list: kind = .list
            case .set: kind = .set
            case .map: kind = .map
            default: kind = nil
            }
            if let kind, let elementType = property.type.collectionElement,
                var element = ColumnType.forProperty(elementType, keyType: keyType)
            {
                // A list or set of links holds no nulls, but the column stays nullable like every link column.
                if case .link = elementType { element.isNullable = false }
                collections.append(
                    CollectionTable(
                        property: property.name, kind: kind, tableName: model.name + "." + property.name,
                        element: element, ownerKey: ownerKey))
            } else if let column = ColumnType.forProperty(property.type, keyType: keyType) {
                columns.append((property.name, column))
            }
        }
        self.columns = columns
        self.collections = collections
        self.propertyRenames = renames
    }

    static func == (lhs: ModelTable, rhs: ModelTable) -> Bool {
        lhs.model == rhs.model && lhs.keyColumn == rhs.keyColumn && lhs.keyType == rhs.keyType
            && lhs.columns.map(\.name) == rhs.columns.map(\.name) && lhs.columns.map(\.type) == rhs.columns.map(\.type)
            && lhs.collections == rhs.collections && lhs.renamedFrom == rhs.renamedFrom
            && lhs.propertyRenames == rhs.propertyRenames
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(model)
        hasher.combine(keyColumn)
    }
}

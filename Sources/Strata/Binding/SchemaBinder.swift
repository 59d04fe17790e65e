import StrataSchema
import StrataStorage

/// Creates a new file's tables from the schema, or checks an existing file against it, and binds every model to
/// its table and columns.
struct SchemaBinder {
    let configuration: Configuration
    let path: String

    /// The models this database uses: the newest version's, restricted to `Configuration.objectTypes`.
    ///
    /// - Throws: `StrataError.invalidArgument` when `objectTypes` names a class that is not in the schema, or
    ///   leaves out a model that one of them links to.
    func selectedModels() throws -> [(ObjectBase.Type, ModelDefinition)] {
        let schema = configuration.schema
        let current = schema.history.current
        var selected: [(ObjectBase.Type, ModelDefinition)] = []
        let types = configuration.objectTypes ?? schema.objectTypes
        for type in types {
            let name = type.modelDescription.name
            guard let definition = current.model(named: name) else {
                throw StrataError.invalidArgument(
                    "objectTypes lists \(name), which is not a model of schema \(schema.name) v\(current.version)")
            }
            selected.append((type, definition))
        }
        let names = Set(selected.map(\.1.name))
        for (_, definition) in selected {
            for property in definition.properties {
                if let target = property.type.linkedModel, !names.contains(target) {
                    throw StrataError.invalidArgument(
                        "objectTypes includes \(definition.name), whose property '\(property.name)' links to "
                            + "\(target), which objectTypes leaves out; add \(target) to objectTypes")
                }
            }
        }
        return selected
    }

    /// Creates the tables, columns and indexes of `models` in a new file and records the schema.
    func createTables(in catalog: Catalog, models: [(ObjectBase.Type, ModelDefinition)]) throws {
        var tables: [String: Table] = [:]
        for (_, model) in models {
            let table = try catalog.createTable(named: model.name)
            if model.isEmbedded { try table.setEmbedded(true) }
            tables[model.name] = table
        }
        for (_, model) in models {
            guard let table = tables[model.name] else { continue }
            for property in model.persistedProperties {
                try addColumn(for: property, to: table, tables: tables)
            }
            try addIndexes(of: model, to: table)
        }
        try record.write(to: catalog)
    }

    /// Adds the column that stores `property` (used for new tables and by migrations for added properties).
    func addColumn(for property: PropertyDefinition, to table: Table, tables: [String: Table]) throws {
        guard let columnType = property.type.columnType else { return }
        var target: TableKey?
        if let name = property.type.linkedModel {
            guard let targetTable = tables[name] else {
                throw StrataError.schemaMismatch(path: path, detail: "no table for model \(name)")
            }
            target = targetTable.key
        }
        try table.addColumn(
            named: property.name, type: columnType, nullable: property.type.isNullableColumn,
            elementsNullable: property.type.hasNullableElements, target: target,
            defaultValue: ValueConversion.defaultValue(for: property))
    }

    /// The primary key, the `indexed` / `indexes` indexes and the uniqueness rules' unique indexes of `model`.
    func addIndexes(of model: ModelDefinition, to table: Table) throws {
        if let primaryKey = model.primaryKey, let column = table.column(named: primaryKey) {
            try table.setPrimaryKey(column.key)
        }
        // A uniqueness rule's index answers queries too: no plain index beside it on the same properties.
        let unique = Set(model.uniquenessRules)
        for property in model.persistedProperties where property.isIndexed && property.name != model.primaryKey {
            if unique.contains([property.name]) { continue }
            if let column = table.column(named: property.name) { try table.addIndex(on: [column.key]) }
        }
        for compound in model.compoundIndexes where !unique.contains(compound) {
            let keys = compound.compactMap { table.column(named: $0)?.key }
            if keys.count == compound.count { try table.addIndex(on: keys) }
        }
        for property in model.persistedProperties where property.isFullText {
            if let column = table.column(named: property.name) { try table.addFullTextIndex(on: column.key) }
        }
        for rule in model.uniquenessRules {
            let keys = rule.compactMap { table.column(named: $0)?.key }
            if keys.count == rule.count { try table.addIndex(on: keys, unique: true) }
        }
    }

    /// The record of the code's schema: its newest version and every version's fingerprint.
    var record: SchemaRecord {
        let schema = configuration.schema
        return SchemaRecord(
            schema: schema.name, version: schema.version,
            fingerprints: Dictionary(uniqueKeysWithValues: schema.fingerprints.map { (String($0.key), $0.value) }),
            deleteRules: SchemaRecord.deleteRules(of: schema.history.current))
    }

    /// Checks that the file's record describes the code's schema at its newest version.
    ///
    /// - Throws: `schemaMismatch` for another schema or an edited history; `migrationNeeded` when the versions
    ///   differ (the caller migrates, or refuses for a read-only or newer file).
    func check(_ recorded: SchemaRecord) throws {
        let schema = configuration.schema
        guard recorded.schema == schema.name else {
            throw StrataError.schemaMismatch(
                path: path, detail: "the file holds schema '\(recorded.schema)', the code opens it with '\(schema.name)'")
        }
        // The differing version reported is the one whose number sorts first as text; found without sorting the
        // record (whose sorted copy every open paid for).
        var differing: (versionText: String, version: Int, fingerprint: String, ours: String)?
        for (versionText, fingerprint) in recorded.fingerprints {
            guard let version = Int(versionText), let ours = schema.fingerprint(ofVersion: version), ours != fingerprint
            else { continue }
            if let first = differing, first.versionText < versionText { continue }
            differing = (versionText, version, fingerprint, ours)
        }
        if let (_, version, fingerprint, ours) = differing {
            throw StrataError.schemaMismatch(
                path: path,
                detail: "version \(version) of \(schema.name) differs from the one the file was written with "
                    + "(fingerprint \(fingerprint), code has \(ours)); a shipped version must never be edited: "
                    + "restore it and put the change in a new version")
        }
        if recorded.version > schema.version {
            throw StrataError.migrationNeeded(
                path: path, fileVersion: recorded.version, schemaVersion: schema.version,
                detail: "the file was written by newer code; update the app to open it")
        }
        if recorded.version < schema.version {
            throw StrataError.migrationNeeded(
                path: path, fileVersion: recorded.version, schemaVersion: schema.version,
                detail: "it must be migrated to version \(schema.version)")
        }
    }

    /// Binds each model to its table and columns, checking they have the types the schema says.
    func bind(_ catalog: Catalog, models: [(ObjectBase.Type, ModelDefinition)]) throws -> SchemaBinding {
        var bindings: [ModelBinding] = []
        for (index, (type, model)) in models.enumerated() {
            // The table's shape, not the table: binding checks every model, and builds no table it may never read.
            guard let table = catalog.shape(ofTableNamed: model.name) else {
                throw StrataError.schemaMismatch(path: path, detail: "the file has no table for model \(model.name)")
            }
            guard table.isEmbedded == model.isEmbedded else {
                throw StrataError.schemaMismatch(
                    path: path,
                    detail: "model \(model.name) is \(model.isEmbedded ? "" : "not ")embedded in the schema, but its "
                        + "table is \(table.isEmbedded ? "" : "not ")embedded in the file")
            }
            let columns = try table.columnKeys(for: model, version: configuration.schema.version, path: path)
            bindings.append(
                ModelBinding(
                    index: index, type: type, version: configuration.schema.version, definition: model,
                    tableKey: table.key, columns: columns))
        }
        let binding = SchemaBinding(models: bindings)
        for model in bindings {
            for (column, property) in model.description.properties.enumerated() {
                if let target = property.type.linkedModel { model.linkTargets[column] = binding.model(named: target) }
            }
        }
        return binding
    }
}

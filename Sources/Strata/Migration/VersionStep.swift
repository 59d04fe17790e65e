#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// Runs one version step (`plan`, from `old` to `new`) inside the migration's write transaction.
///
/// Phases, in this order, whatever order the plan lists its steps in:
/// 1. Models and properties that go away are *set aside* under reserved names, not dropped, so the typed old
///    views of custom steps and the untyped `Migration` API can still read them; renames then cannot collide.
/// 2. Models and properties are renamed (keys and data stay).
/// 3. New models and properties are created and filled with their defaults (`auto` per object).
/// 4. Converted properties get a new column filled from the old one, which is set aside.
/// 5. Primary keys and indexes are rebuilt to match the new version; duplicate new keys fail the step.
/// 6. The app's custom steps run, then its untyped migration block.
/// 7. What was set aside is dropped.
/// 8. Models that become embedded are checked (every object must have exactly one owner) and flagged. Models that
///    stop being embedded are unflagged in phase 1, so that nothing of the step deletes their objects for them.
struct VersionStep {
    let session: MigrationSession
    let plan: MigrationPlan
    let old: SchemaVersion
    let new: SchemaVersion

    /// Columns and tables set aside in phases 1 and 4, dropped in phase 7.
    private final class SetAside {
        var columns: [(table: TableKey, column: ColumnKey)] = []
        var tables: [TableKey] = []
    }
    private let setAside = SetAside()

    private var catalog: Catalog { session.catalog }

    /// Runs the step.
    ///
    /// - Throws: `StrataError.migrationFailed` naming the model, the property and the objects concerned; what the
    ///   app's migration code throws. The caller rolls the transaction back.
    func run() throws {
        let oldLayout = try VersionLayout(old, catalog: catalog, path: session.path)
        try releaseEmbeddedModels()
        try setAsideRemovedModels()
        try renameModels()
        try setAsideRemovedProperties()
        try renameProperties()
        try addModels()
        try addProperties()
        try convertProperties()
        try rebuildIndexes()
        let newLayout = try VersionLayout(new, catalog: catalog, path: session.path)
        try runCustomSteps(old: oldLayout, new: newLayout)
        if let block = session.configuration.migrationBlock {
            let migration = Migration(session: session, old: oldLayout, new: newLayout, oldSchema: old, newSchema: new)
            try block(migration)
            try session.throwPendingError()
        }
        try buildUniqueIndexes()
        try dropSetAside()
        try embedModels()
    }

    // MARK: Looking up

    private func table(named name: String) throws -> Table {
        guard let table = catalog.table(named: name) else {
            throw session.failure("the file has no table for model \(name), which version \(old.version) declares")
        }
        return table
    }

    private func column(_ name: String, of table: Table) throws -> ColumnSpec {
        guard let column = table.column(named: name) else {
            throw session.failure("model \(table.name) has no stored property '\(name)'")
        }
        return column
    }

    /// A reserved name for a set-aside table or column: user names are Swift identifiers, which never contain `~`.
    private func reservedName(_ key: UInt32) -> String { "~migration \(plan.toVersion) #\(key)" }

    // MARK: Phases 1 and 2: set aside, rename

    private func setAsideRemovedModels() throws {
        for case .removeModel(let name) in plan.steps {
            let table = try table(named: name)
            try catalog.renameTable(name, to: reservedName(table.key.rawValue))
            setAside.tables.append(table.key)
        }
    }

    private func renameModels() throws {
        for case .renameModel(let from, let to) in plan.steps {
            _ = try table(named: from)
            try catalog.renameTable(from, to: to)
        }
    }

    private func setAsideRemovedProperties() throws {
        for case .removeProperty(let model, let property) in plan.steps {
            let table = try table(named: model)
            let column = try column(property, of: table)
            try table.renameColumn(column.key, to: reservedName(column.key.rawValue))
            setAside.columns.append((table.key, column.key))
        }
    }

    private func renameProperties() throws {
        for case .renameProperty(let model, let from, let to) in plan.steps {
            let table = try table(named: model)
            try table.renameColumn(try column(from, of: table).key, to: to)
        }
    }

    // MARK: Phase 3: add

    private var binder: SchemaBinder { SchemaBinder(configuration: session.configuration, path: session.path) }

    private func tablesByName() -> [String: Table] {
        Dictionary(catalog.tables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func addModels() throws {
        var added: [ModelDefinition] = []
        for case .addModel(let name) in plan.steps {
            guard let model = new.model(named: name) else {
                throw session.failure("the plan adds model \(name), which version \(new.version) does not declare")
            }
            try catalog.createTable(named: name).setEmbedded(model.isEmbedded)
            added.append(model)
        }
        let tables = tablesByName()
        for model in added {
            guard let table = tables[model.name] else { continue }
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
        }
    }

    private func addProperties() throws {
        let tables = tablesByName()
        for case .addProperty(let model, let name, _, _) in plan.steps {
            // Transient and linking-objects properties are never stored.
            guard let property = new.model(named: model)?.persistedProperties.first(where: { $0.name == name }) else {
                continue
            }
            let table = try table(named: model)
            try binder.addColumn(for: property, to: table, tables: tables)
            if property.defaultValue == .auto, let column = table.column(named: name) {
                try fillAuto(property, column: column.key, of: table)
            }
        }
    }

    /// Gives each existing object its own `auto` value: a random UUID, a new ObjectId, the next integer, or now.
    private func fillAuto(_ property: PropertyDefinition, column: ColumnKey, of table: Table) throws {
        let now = ValueConversion.timestamp(Date())
        try session.forEachObject(of: table) { key in
            let value: StorageValue
            switch property.type.unwrapped {
            case .uuid: value = .uuid(UUID())
            case .objectId: value = .objectId(ObjectId.generate())
            case .integer: value = .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))
            case .date: value = .timestamp(now)
            default: return
            }
            try session.write(value, key: key, column: column, of: table)
        }
    }

    // MARK: Phase 4: convert

    private func convertProperties() throws {
        for step in plan.steps {
            let conversion: ColumnConversion
            let model: String
            let property: String
            switch step {
            case .convertProperty(let name, let propertyName, let from, let to):
                (model, property) = (name, propertyName)
                conversion = ColumnConversion(from: from, to: to, replacementForNil: nil)
            case .replaceNils(let name, let propertyName, let from, let to, _):
                (model, property) = (name, propertyName)
                let definition = new.model(named: name)?.property(named: propertyName)
                conversion = ColumnConversion(
                    from: from, to: to, replacementForNil: definition.flatMap(ValueConversion.defaultValue(for:)))
            default:
                continue
            }
            guard conversion.changesColumn else { continue }
            try convert(property, of: try table(named: model), with: conversion)
        }
    }

    /// Fills a new column of the new type from the old one, which is set aside.
    private func convert(_ property: String, of table: Table, with conversion: ColumnConversion) throws {
        // Links convert only from a list of links to a set of them (`[Person]` to `set<Person>`): same targets.
        guard let definition = new.model(named: table.name)?.property(named: property),
            let columnType = definition.type.columnType,
            definition.type.linkedModel == nil || conversion.dropsDuplicates
        else {
            throw session.failure("\(table.name).\(property) cannot be converted to \(conversion.to) automatically")
        }
        let target = try definition.type.linkedModel.map { try self.table(named: $0).key }
        let oldColumn = try column(property, of: table)
        try table.renameColumn(oldColumn.key, to: reservedName(oldColumn.key.rawValue))
        setAside.columns.append((table.key, oldColumn.key))
        let newColumn = try table.addColumn(
            named: property, type: columnType, nullable: definition.type.isNullableColumn,
            elementsNullable: definition.type.hasNullableElements, target: target,
            defaultValue: conversion.replacementForNil)
        try session.forEachObject(of: table) { key in
            let value = try table.value(key, column: oldColumn.key)
            do {
                try session.write(try conversion.convert(value), key: key, column: newColumn, of: table)
            } catch let failure as ConversionFailure {
                throw session.failure(
                    "\(table.name).\(property) of object \(key) cannot become \(conversion.to.schemaSpelling): "
                        + failure.detail)
            }
        }
    }

    // MARK: Phase 5: primary keys and indexes

    private func rebuildIndexes() throws {
        for model in new.models {
            let table = try table(named: model.name)
            try rebuildPrimaryKey(of: model, in: table)
            let rules = model.uniquenessRules
            let unique = try rules.map { try $0.map { try column($0, of: table).key } }
            var wanted: [[ColumnKey]] = []
            for property in model.persistedProperties where property.isIndexed && property.name != model.primaryKey {
                wanted.append([try column(property.name, of: table).key])
            }
            for compound in model.compoundIndexes {
                wanted.append(try compound.map { try column($0, of: table).key })
            }
            wanted.removeAll { unique.contains($0) }
            let primaryKey = table.primaryKey.map { [$0] }
            for index in table.indexSpecs where index.columns != primaryKey || !index.isUnique {
                let kept = index.isUnique ? unique.contains(index.columns) : wanted.contains(index.columns)
                if !kept { try table.removeIndex(index.key) }
            }
            for columns in wanted where table.index(on: columns) == nil {
                try table.addIndex(on: columns)
            }
            // Full-text indexes: dropped when the property loses `fullText`, built from the objects when it gains it.
            let fullText = try model.persistedProperties.filter(\.isFullText).map { try column($0.name, of: table).key }
            for index in table.fullTextIndexSpecs where !fullText.contains(index.columns[0]) {
                try table.removeIndex(index.key)
            }
            for column in fullText where table.fullTextIndex(on: column) == nil {
                try table.addFullTextIndex(on: column)
            }
        }
    }

    /// Builds the unique indexes of uniqueness rules the new version adds, after the step's code has run (so that
    /// it can make values unique first); duplicates fail the migration, named.
    private func buildUniqueIndexes() throws {
        for model in new.models {
            let table = try table(named: model.name)
            for rule in model.uniquenessRules {
                let columns = try rule.map { try column($0, of: table).key }
                guard table.index(on: columns)?.isUnique != true else { continue }
                try checkUniqueness(of: rule, columns: columns, in: model, table: table)
                try table.addIndex(on: columns, unique: true)
            }
        }
    }

    /// Fails the migration naming the objects that share values of a uniqueness rule the new version adds (nulls
    /// never collide): the first ten groups of duplicates, each with its value and up to ten object keys.
    private func checkUniqueness(
        of rule: [String], columns: [ColumnKey], in model: ModelDefinition, table: Table
    ) throws {
        var holders: [[StorageValue]: [ObjectKey]] = [:]
        var order: [[StorageValue]] = []
        try session.forEachObject(of: table) { key in
            let values = try columns.map { try table.value(key, column: $0) }
            if values.contains(where: \.isNull) { return }
            if holders[values] == nil { order.append(values) }
            holders[values, default: []].append(key)
        }
        let duplicates = order.filter { holders[$0]!.count > 1 }
        guard !duplicates.isEmpty else { return }
        let names = rule.map { "\(model.name).\($0)" }.joined(separator: " + ")
        let groups = duplicates.prefix(10).map { values in
            let keys = holders[values]!
            let value = values.count == 1 ? values[0].description : "(" + values.map(\.description)
                .joined(separator: ", ") + ")"
            return "\(value) is held by \(keys.count) objects (object keys "
                + keys.prefix(10).map { "\($0.rawValue)" }.joined(separator: ", ") + ")"
        }
        throw session.failure(
            "\(names) becomes unique, but "
                + (duplicates.count == 1 ? "a value is" : "\(duplicates.count) values are")
                + " held by several objects: "
                + groups.joined(separator: "; ")
                + "; make the values unique in a custom step of version \(new.version), or in the app before updating")
    }

    private func rebuildPrimaryKey(of model: ModelDefinition, in table: Table) throws {
        let wanted = try model.primaryKey.map { try column($0, of: table).key }
        guard table.primaryKey != wanted || (wanted.map { table.index(on: [$0])?.isUnique != true } ?? false) else {
            return
        }
        do {
            try table.setPrimaryKey(wanted)
        } catch StrataError.duplicatePrimaryKey(_, let value) {
            let property = model.primaryKey ?? "?"
            let holders = try objects(of: table, withValue: value, in: wanted)
            throw session.failure(
                "\(model.name).\(property) becomes the primary key, but \(holders.count) objects share the value "
                    + "\(value) (object keys \(holders.prefix(10).map { "\($0.rawValue)" }.joined(separator: ", "))); "
                    + "make the values unique in a custom step of version \(new.version), or in the app before updating")
        }
        if let key = model.primaryKey, let property = model.property(named: key), property.defaultValue == .auto,
            case .integer = property.type, let column = wanted
        {
            var highest: Int64 = 0
            try session.forEachObject(of: table) { highest = max(highest, try table.int($0, column: column) ?? 0) }
            try table.raiseSequence(ModelBinding.primaryKeySequence, toAtLeast: highest)
        }
    }

    /// The objects whose `column` renders as `value` (how the store names a duplicate key), for the message.
    private func objects(of table: Table, withValue value: String, in column: ColumnKey?) throws -> [ObjectKey] {
        guard let column else { return [] }
        var found: [ObjectKey] = []
        try table.forEachKey { key in
            let stored = try table.value(key, column: column)
            if "\(stored)" == value || stored.description == value || textOf(stored) == value { found.append(key) }
            return true
        }
        return found
    }

    private func textOf(_ value: StorageValue) -> String? {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .uuid(let uuid): return uuid.uuidString
        case .objectId(let id): return id.stringValue
        default: return nil
        }
    }

    // MARK: Phase 6: custom steps

    private func runCustomSteps(old: VersionLayout, new newLayout: VersionLayout) throws {
        for model in plan.customModels {
            guard let target = newLayout[model], let definition = new.model(named: model) else { continue }
            guard let source = old[definition.renamedFrom ?? model] else { continue }
            let table = try session.table(target.tableKey, for: model)
            try session.forEachObject(of: table) { key in
                let oldRow = MigrationRow(
                    session: session, model: source, key: key, isWritable: false, versionModels: old.models)
                let newRow = MigrationRow(
                    session: session, model: target, key: key, isWritable: true, versionModels: newLayout.models)
                try session.configuration.customMigrations.run(
                    model: model, toVersion: plan.toVersion, old: oldRow, new: newRow)
                try session.throwPendingError()
            }
        }
    }

    // MARK: Phases 1 and 8: models that stop or start being embedded

    private func releaseEmbeddedModels() throws {
        for case .changeEmbedded(let model, false) in plan.steps {
            try table(named: model).setEmbedded(false)
        }
    }

    /// Flags the models that become embedded, once the step's code has had its chance to give every object of
    /// theirs exactly one owner. When app code ran in the step, the models that were embedded already are checked
    /// too: `Migration.create(_:value:)` can make an embedded object that nothing owns.
    ///
    /// - Throws: `StrataError.migrationFailed` naming the objects without an owner and those with several.
    private func embedModels() throws {
        var becoming: [String] = []
        for case .changeEmbedded(let model, true) in plan.steps { becoming.append(model) }
        let codeRan = !plan.customModels.isEmpty || session.configuration.migrationBlock != nil
        let staying = codeRan ? new.models.filter { $0.isEmbedded && !becoming.contains($0.name) }.map(\.name) : []
        for model in becoming + staying {
            let table = try table(named: model)
            let orphans = try table.unownedObjects()
            let shared = try table.sharedObjects()
            guard orphans.isEmpty, shared.isEmpty else {
                var problems: [String] = []
                if !orphans.isEmpty {
                    problems.append("\(orphans.count) \(model) objects have no owner (object keys "
                        + orphans.prefix(10).map { "\($0.rawValue)" }.joined(separator: ", ")
                        + (orphans.count > 10 ? ", …" : "") + ")")
                }
                if !shared.isEmpty {
                    problems.append("\(shared.count) have several owners ("
                        + shared.prefix(10).map { "object \($0.key.rawValue): \($0.owners) owners" }
                            .joined(separator: ", ")
                        + (shared.count > 10 ? ", …" : "") + ")")
                }
                let what = becoming.contains(model) ? "makes \(model) embedded" : "keeps \(model) embedded"
                throw session.failure(
                    "version \(new.version) \(what), but " + problems.joined(separator: " and ")
                        + ": an embedded object has exactly one owner; in the version's custom migration "
                        + "('migrate: custom' or the migration block), delete the orphans and give each owner a "
                        + "copy of its own (Migration.create(_:value:)), or keep \(model) a top-level model")
            }
            try table.setEmbedded(true)
        }
    }

    // MARK: Phase 7: drop

    private func dropSetAside() throws {
        for (tableKey, column) in setAside.columns {
            guard let table = catalog.table(tableKey), table.column(column) != nil else { continue }
            try table.removeColumn(column)
        }
        let removed = setAside.tables.compactMap { catalog.table($0) }
        // Links between removed models go first, so that no removed table is still a link's target.
        for table in removed {
            for column in table.columns where column.type.isLink { try table.removeColumn(column.key) }
        }
        for table in removed {
            do {
                try catalog.removeTable(named: table.name)
            } catch StrataError.invalidArgument(let detail) {
                throw session.failure("a removed model cannot be dropped: \(detail)")
            }
        }
    }
}

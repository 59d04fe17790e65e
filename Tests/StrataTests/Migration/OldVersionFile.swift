import Foundation
import StrataSchema
import StrataStorage

@testable import Strata

/// A database file written at an old version of `Shop`'s history through the storage layer, the way the app's
/// previous release left it: its tables, columns and indexes, its schema record, and the objects a test inserts.
final class OldVersionFile {
    let store: Store
    let write: WriteTransaction
    let catalog: Catalog
    let schema: SchemaVersion

    /// Creates the file at `path` holding version `version` of `Shop` (whose code is at version 3).
    init(path: String, version: Int) throws {
        guard let schema = Shop.history.versions.first(where: { $0.version == version }) else {
            throw StrataError.invalidArgument("Shop has no version \(version)")
        }
        self.schema = schema
        store = try Store.open(path: path, options: StoreOptions(durability: .none))
        write = try store.beginWrite()
        catalog = try Catalog(writer: write)
        let binder = SchemaBinder(configuration: ShopConfiguration.make(path: path), path: path)
        for model in schema.models { try catalog.createTable(named: model.name) }
        let tables = Dictionary(uniqueKeysWithValues: catalog.tables.map { ($0.name, $0) })
        for model in schema.models {
            guard let table = tables[model.name] else { continue }
            for property in model.persistedProperties { try binder.addColumn(for: property, to: table, tables: tables) }
            try binder.addIndexes(of: model, to: table)
        }
        var fingerprints: [String: String] = [:]
        for (number, fingerprint) in Shop.fingerprints where number <= version {
            fingerprints[String(number)] = fingerprint
        }
        try SchemaRecord(schema: "Shop", version: version, fingerprints: fingerprints).write(to: catalog)
    }

    /// Inserts an object of `model` with `values` by property name (other properties get their defaults).
    @discardableResult
    func insert(_ model: String, _ values: [String: StorageValue]) throws -> ObjectKey {
        guard let table = catalog.table(named: model) else { throw StrataError.invalidArgument("no table \(model)") }
        let pairs = try values.map { name, value -> (ColumnKey, StorageValue) in
            guard let column = table.column(named: name) else {
                throw StrataError.invalidArgument("no column \(model).\(name)")
            }
            return (column.key, value)
        }
        return try table.insert(pairs)
    }

    /// Replaces the schema record (to fake a newer file or an edited history).
    func record(version: Int, fingerprints: [String: String]) throws {
        try SchemaRecord(schema: "Shop", version: version, fingerprints: fingerprints).write(to: catalog)
    }

    /// Commits and closes the file.
    func commit() throws {
        try catalog.flush()
        try write.commit()
        store.close()
    }
}

/// Everything a file holds, rendered as text: tables with their columns (names and types), indexes and every
/// object's values, plus the schema record. Two files with the same rendering hold the same data.
enum FileContents {
    static func render(path: String) throws -> String {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        let read = try store.beginRead()
        defer { read.end() }
        let catalog = try Catalog(reader: read)
        var lines: [String] = []
        if let record = try catalog.metadata(forKey: SchemaRecord.metadataKey) {
            lines.append("record " + String(decoding: record, as: UTF8.self))
        }
        for table in catalog.tables.sorted(by: { $0.name < $1.name }) {
            lines.append("table \(table.name) key \(table.key) pk \(String(describing: table.primaryKey))")
            lines.append("  columns " + table.columns.map { "\($0.name):\($0.type)\($0.isNullable ? "?" : "")" }
                .joined(separator: ", "))
            lines.append("  indexes " + table.indexSpecs.map { "\($0.columns)\($0.isUnique ? "!" : "")" }
                .joined(separator: ", "))
            try table.forEachKey { key in
                let values = try table.columns.filter { $0.type != .backlinks }.map { "\(try table.value(key, column: $0.key))" }
                lines.append("  \(key): " + values.joined(separator: " | "))
                return true
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The schema version the file records.
    static func recordedVersion(path: String) throws -> Int? {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        let read = try store.beginRead()
        defer { read.end() }
        return try SchemaRecord.read(from: try Catalog(reader: read), path: path)?.version
    }
}

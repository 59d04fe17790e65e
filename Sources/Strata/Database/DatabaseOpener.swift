import Foundation
import StrataSchema
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StrataStorage

/// Opens a configuration's store and brings its schema to the code's: creates the tables of a new file, checks
/// an existing one, recreates it under `deleteIfMigrationNeeded`.
struct DatabaseOpener {
    let configuration: Configuration

    /// What an open hands the new database: the store, its bound models, and the read transaction (with its
    /// catalog) the models were bound in.
    struct Opened {
        let store: Store
        let schema: SchemaBinding
        /// The database starts by reading this version: a first query then needs neither a new transaction (a
        /// reader slot taken and given back under the file's lock) nor another decoding of the catalog.
        let read: ReadTransaction
        let catalog: Catalog
    }

    /// The open store and its bound models.
    func open() throws -> Opened {
        let store = try openStore()
        do {
            return try prepareSchema(of: store)
        } catch StrataError.migrationNeeded(_, let fileVersion, let schemaVersion, _)
            where configuration.deleteIfMigrationNeeded && !configuration.readOnly && fileVersion != schemaVersion
        {
            store.close()
            try Database.deleteFiles(for: configuration)
            return try prepareSchema(of: try openStore())
        }
    }

    private func openStore() throws -> Store {
        var options = StoreOptions(durability: configuration.durability, readOnly: configuration.readOnly)
        options.encryptionKey = configuration.encryptionKey.map { Array($0) }
        options.acceptsLostCommits = configuration.acceptsLostCommits
        options.filePermissions = configuration.filePermissions
        if let shouldCompact = configuration.shouldCompactOnLaunch {
            options.compactOnOpen = { fileBytes, usedBytes in shouldCompact(Int(fileBytes), Int(usedBytes)) }
        }
        if let identifier = configuration.inMemoryIdentifier {
            return try Store.inMemory(identifier: identifier, options: options)
        }
        let fileURL = configuration.fileURL
        let path = fileURL.path
        if !configuration.readOnly, !Self.directoryExists(of: path) {
            let directory = fileURL.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw StrataError.io(
                    operation: "create directory", path: directory.path, errno: 0,
                    message: "cannot create the database's directory: \(error.localizedDescription)")
            }
        }
        return try Store.open(path: path, options: options)
    }

    /// Whether the directory that holds the file at `path` exists. Asked of the system directly: the usual case
    /// (it exists) then needs neither `FileManager` nor URL arithmetic, whose first use in a process costs more
    /// than the check.
    private static func directoryExists(of path: String) -> Bool {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return true }  // relative: the cwd
        let directory = slash == path.utf8.startIndex ? "/" : String(path[..<slash])
        var status = stat()
        guard stat(directory, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR
    }

    private func prepareSchema(of store: Store) throws -> Opened {
        let binder = SchemaBinder(configuration: configuration, path: store.path)
        let models = try binder.selectedModels()

        // Most opens find the schema in place: check it from a read transaction, without taking the writer lock.
        let read = try store.beginRead()
        let readCatalog = try Catalog(reader: read)
        if let recorded = try SchemaRecord.read(from: readCatalog, path: store.path) {
            guard try needsMigration(recorded, binder: binder) else {
                return try bind(models, binder: binder, store: store, read: read, catalog: readCatalog)
            }
        }
        read.end()
        if configuration.readOnly {
            throw StrataError.schemaMismatch(
                path: store.path, detail: "the file holds no schema yet; open it read-write once to create it")
        }

        let write = try store.beginWrite()
        do {
            let catalog = try Catalog(writer: write)
            if let recorded = try SchemaRecord.read(from: catalog, path: store.path) {
                if try needsMigration(recorded, binder: binder) {
                    try SchemaMigration(configuration: configuration, catalog: catalog, path: store.path)
                        .run(from: recorded)
                    try catalog.flush()
                    try write.commit()
                } else {
                    // Another thread or process created or migrated it between our read and our write.
                    write.rollback()
                }
                let again = try store.beginRead()
                return try bind(models, binder: binder, store: store, read: again, catalog: try Catalog(reader: again))
            }
            guard catalog.tables.isEmpty else {
                throw StrataError.schemaMismatch(
                    path: store.path, detail: "the file has tables but no Strata schema record")
            }
            try binder.createTables(in: catalog, models: models)
            try catalog.flush()
            try write.commit()
            let committed = try store.beginRead()
            return try bind(
                models, binder: binder, store: store, read: committed, catalog: try Catalog(reader: committed))
        } catch {
            write.rollback()
            throw error
        }
    }

    private func bind(
        _ models: [(ObjectBase.Type, ModelDefinition)], binder: SchemaBinder, store: Store, read: ReadTransaction,
        catalog: Catalog
    ) throws -> Opened {
        Opened(store: store, schema: try binder.bind(catalog, models: models), read: read, catalog: catalog)
    }

    /// Whether the file's `recorded` schema is an older version of the code's that this open migrates.
    ///
    /// - Throws: `schemaMismatch` for another schema or an edited history; `migrationNeeded` for a file newer than
    ///   the code, or an older one that may not be migrated here (read-only, or `deleteIfMigrationNeeded`, which
    ///   the caller turns into a fresh file).
    private func needsMigration(_ recorded: SchemaRecord, binder: SchemaBinder) throws -> Bool {
        do {
            try binder.check(recorded)
            return false
        } catch StrataError.migrationNeeded(let path, let fileVersion, let schemaVersion, let detail)
            where fileVersion < schemaVersion
        {
            if configuration.deleteIfMigrationNeeded {
                throw StrataError.migrationNeeded(
                    path: path, fileVersion: fileVersion, schemaVersion: schemaVersion, detail: detail)
            }
            if configuration.readOnly {
                throw StrataError.migrationNeeded(
                    path: path, fileVersion: fileVersion, schemaVersion: schemaVersion,
                    detail: "it must be migrated, and it was opened read-only; open it once without `readOnly` "
                        + "so that it migrates")
            }
            return true
        }
    }
}

extension Database {
    /// Deletes the database file of `configuration`, its lock file and what an interrupted creation or compaction
    /// left beside it (for an in-memory configuration, nothing). A symbolic link at the configured path goes too,
    /// with the file it names.
    ///
    /// Close every `Database` of the file first, in every process: deleting a file in use would leave them on a
    /// file without a name, so it is refused (as Realm refuses to delete the files of an open Realm).
    ///
    /// - Returns: Whether a database file existed.
    /// - Throws: `StrataError.io` with `EBUSY` when this process or another has the database open;
    ///   `StrataError.io` when a file exists but cannot be removed.
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws -> Bool {
        guard configuration.inMemoryIdentifier == nil else { return false }
        let link = configuration.fileURL.path
        let existed = try Store.deleteFiles(at: link)
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil {
            do {
                try FileManager.default.removeItem(atPath: link)
            } catch {
                throw StrataError.io(operation: "remove", path: link, errno: 0, message: error.localizedDescription)
            }
        }
        return existed
    }
}

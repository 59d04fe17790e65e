import Foundation
import Strata
import StrataStorage

/// The embedded-model migration of the kill tests: `Homestead` version 1 (farms linking to top-level barns) to
/// version 2 (barns embedded in their farms, and a custom step giving each farm `acres`).
enum Homestead1To2 {
    /// The custom step of version 2: a farm's acres are ten times its barn's size.
    struct Steps: HomesteadMigrations {
        func migrateFarm(from old: Homestead.V1.Farm, to new: Farm) throws {
            new.acres = (old.barn?.size ?? 0) * 10
        }
    }

    static func configuration(_ path: String) -> Configuration {
        var configuration = Configuration(schema: Homestead.self, migrations: Steps())
        configuration.fileURL = URL(fileURLWithPath: path)
        return configuration
    }

    /// Writes version 1 through the storage layer: farm `i` links to barn `i` of size `i % 50`.
    static func write(path: String, count: Int) throws {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let farms = try catalog.createTable(named: "Farm")
        let barns = try catalog.createTable(named: "Barn")
        let id = try farms.addColumn(named: "id", type: .value(.int))
        let barn = try farms.addColumn(named: "barn", type: .value(.link), target: barns.key)
        let size = try barns.addColumn(named: "size", type: .value(.int))
        try farms.setPrimaryKey(id)
        let fingerprint = Homestead.fingerprints[1] ?? ""
        let record = "{\"fingerprints\":{\"1\":\"\(fingerprint)\"},\"schema\":\"Homestead\",\"version\":1}"
        try catalog.setMetadata(Array(record.utf8), forKey: "strata.schema")
        for number in 0..<count {
            let key = try barns.insert([(size, .int(Int64(number % 50)))])
            try farms.insert([(id, .int(Int64(number))), (barn, .link(key))])
        }
        try catalog.flush()
        try write.commit()
    }

    /// Migrates, printing progress lines and `migrated COUNT objects` at the end.
    static func migrate(path: String) throws {
        var configuration = configuration(path)
        configuration.migrationProgress = { progress in say("progress \(progress.done) \(progress.total)") }
        let database = try Database(configuration: configuration)
        say("migrated \(database.objects(Farm.self).count) objects")
    }

    /// Prints `version 1 intact COUNT` or `version 2 migrated COUNT` after checking every farm and barn.
    static func verify(path: String, count: Int) throws {
        let version = try recordedVersion(path: path)
        if version == 2 {
            let database = try Database(configuration: configuration(path))
            for farm in database.objects(Farm.self) {
                guard farm.barn?.size == farm.id % 50, farm.acres == (farm.id % 50) * 10 else {
                    throw HelperFailure(description: "farm \(farm.id) was not migrated as version 2 says")
                }
            }
            guard database.objects(Farm.self).count == count else { throw HelperFailure(description: "farms lost") }
            say("version 2 migrated \(count)")
            return
        }
        let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
        defer { store.close() }
        let read = try store.beginRead()
        defer { read.end() }
        let catalog = try Catalog(reader: read)
        guard version == 1, let farms = catalog.table(named: "Farm"), let barns = catalog.table(named: "Barn"),
            !barns.isEmbedded, farms.column(named: "acres") == nil, try farms.count() == count,
            try barns.count() == count, let id = farms.column(named: "id"), let barn = farms.column(named: "barn"),
            let size = barns.column(named: "size")
        else { throw HelperFailure(description: "version \(version) is neither intact version 1 nor version 2") }
        try farms.forEachKey { key in
            let number = try farms.int(key, column: id.key) ?? -1
            guard let target = try farms.link(key, column: barn.key),
                try barns.int(target, column: size.key) == number % 50
            else { throw HelperFailure(description: "farm \(number) differs from what version 1 wrote") }
            return true
        }
        say("version 1 intact \(count)")
    }
}

import Foundation
import Strata
import StrataStorage

/// The un-embedding migration of the kill tests: `Paddock` version 1 (each horse owns an embedded saddle and a list
/// of embedded spares) to version 2 (saddles are top-level objects that keep their values and their links, and a
/// custom step gives each horse its `girth`).
enum Paddock1To2 {
    /// The custom step of version 2: a horse's girth is its saddle's size plus how many spares it has.
    struct Steps: PaddockMigrations {
        func migrateHorse(from old: Paddock.V1.Horse, to new: Horse) throws {
            new.girth = (old.saddle?.size ?? 0) + old.spares.count
        }
    }

    static func configuration(_ path: String) -> Configuration {
        var configuration = Configuration(schema: Paddock.self, migrations: Steps())
        configuration.fileURL = URL(fileURLWithPath: path)
        return configuration
    }

    /// The saddle sizes horse `number` owns: its saddle's, then its spares'.
    static func sizes(of number: Int) -> (saddle: Int, spares: [Int]) {
        (number % 40, (0..<number % 3).map { number % 40 + 1 + $0 })
    }

    /// How many saddles `count` horses own.
    static func saddleCount(_ count: Int) -> Int {
        (0..<count).reduce(count) { $0 + sizes(of: $1).spares.count }
    }

    /// Writes version 1 through the storage layer, the saddles in an embedded table.
    static func write(path: String, count: Int) throws {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let horses = try catalog.createTable(named: "Horse")
        let saddles = try catalog.createTable(named: "Saddle")
        try saddles.setEmbedded(true)
        let id = try horses.addColumn(named: "id", type: .value(.int))
        let saddle = try horses.addColumn(named: "saddle", type: .value(.link), target: saddles.key)
        let spares = try horses.addColumn(named: "spares", type: .list(.link), target: saddles.key)
        let size = try saddles.addColumn(named: "size", type: .value(.int))
        try horses.setPrimaryKey(id)
        let fingerprint = Paddock.fingerprints[1] ?? ""
        let record = "{\"fingerprints\":{\"1\":\"\(fingerprint)\"},\"schema\":\"Paddock\",\"version\":1}"
        try catalog.setMetadata(Array(record.utf8), forKey: "strata.schema")
        for number in 0..<count {
            let (main, extra) = sizes(of: number)
            let owned = try saddles.insert([(size, .int(Int64(main)))])
            let listed = try extra.map { try saddles.insert([(size, .int(Int64($0)))]) }
            try horses.insert([
                (id, .int(Int64(number))), (saddle, .link(owned)), (spares, .list(listed.map { .link($0) })),
            ])
        }
        try catalog.flush()
        try write.commit()
    }

    /// Migrates, printing progress lines and `migrated COUNT objects` at the end.
    static func migrate(path: String) throws {
        var configuration = configuration(path)
        configuration.migrationProgress = { progress in say("progress \(progress.done) \(progress.total)") }
        let database = try Database(configuration: configuration)
        say("migrated \(database.objects(Horse.self).count) objects")
    }

    /// Prints `version 1 intact COUNT` or `version 2 migrated COUNT` after checking every horse and saddle.
    static func verify(path: String, count: Int) throws {
        let version = try recordedVersion(path: path)
        if version == 2 {
            let database = try Database(configuration: configuration(path))
            for horse in database.objects(Horse.self) {
                let (main, extra) = sizes(of: horse.id)
                guard let saddle = horse.saddle, saddle.size == main, horse.spares.map(\.size) == extra,
                    horse.girth == main + extra.count, saddle.riders.map(\.id) == [horse.id]
                else { throw HelperFailure(description: "horse \(horse.id) was not migrated as version 2 says") }
            }
            guard database.objects(Horse.self).count == count,
                database.objects(Saddle.self).count == saddleCount(count)
            else { throw HelperFailure(description: "horses or saddles lost") }
            say("version 2 migrated \(count)")
            return
        }
        let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
        defer { store.close() }
        let read = try store.beginRead()
        defer { read.end() }
        let catalog = try Catalog(reader: read)
        guard version == 1, let horses = catalog.table(named: "Horse"), let saddles = catalog.table(named: "Saddle"),
            saddles.isEmbedded, horses.column(named: "girth") == nil, try horses.count() == count,
            try saddles.count() == saddleCount(count), let id = horses.column(named: "id"),
            let saddle = horses.column(named: "saddle"), let spares = horses.column(named: "spares"),
            let size = saddles.column(named: "size")
        else { throw HelperFailure(description: "version \(version) is neither intact version 1 nor version 2") }
        try horses.forEachKey { key in
            let number = Int(try horses.int(key, column: id.key) ?? -1)
            let (main, extra) = sizes(of: number)
            guard let owned = try horses.link(key, column: saddle.key),
                try saddles.int(owned, column: size.key) == Int64(main),
                case .list(let listed) = try horses.value(key, column: spares.key),
                try listed.map({ value -> Int64? in
                    guard case .link(let target) = value else { return nil }
                    return try saddles.int(target, column: size.key)
                }) == extra.map({ Int64($0) })
            else { throw HelperFailure(description: "horse \(number) differs from what version 1 wrote") }
            return true
        }
        say("version 1 intact \(count)")
    }
}

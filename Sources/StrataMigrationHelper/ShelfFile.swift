import Foundation
import Strata
import StrataStorage

/// The custom step of `Shelf` version 2: a box's labels say its first tag and how many tags its list held; its
/// traits, how many charms its `[any]` list held, the first of them and the old `extras` map's `k`.
struct ShelfSteps: ShelfMigrations {
    func migrateBox(from old: Shelf.V1.Box, to new: Box) throws {
        if let first = old.tags.first { new.labels["first"] = first }
        new.labels["listed"] = String(old.tags.count)
        new.traits["listed"] = .int(old.charms.count)
        new.traits["first"] = old.charms.first ?? AnyValue.none
        new.traits["k"] = old.extras["k"] ?? AnyValue.none
    }
}

/// A `Shelf` file: written at version 1 through the storage layer, migrated to version 2 by the object layer
/// (lists to sets, a map filled by a custom step), and checked at either version.
enum ShelfFile {
    /// What box `number` holds at version 1: lists with repeats.
    struct Expected {
        let number: Int
        var tags: [String] { ["t\(number % 5)", "t\(number % 3)", "t\(number % 5)"] }
        var codes: [Int64] { [Int64(number % 7), Int64(number % 2), Int64(number % 7)] }
        /// Earlier boxes (by number, which is also the object key), one of them twice.
        var friends: [Int64] { number == 0 ? [] : [Int64(number / 2), Int64(number - 1), Int64(number / 2)] }
        var notes: [String: StorageValue] { ["n": .string("note \(number)")] }
        /// An `[any]` list with repeats: an int twice, nil twice, a decimal equal to the int in value (another
        /// kind, so another set element), a string and, but for box 0, a link to an earlier box.
        func charms(boxes: TableKey) -> [StorageValue] {
            let values: [StorageValue] = [
                .int(Int64(number % 3)), .null, .decimal(Decimal(number % 3)), .string("c\(number % 2)"),
                .int(Int64(number % 3)), .null,
            ]
            return number == 0 ? values : values + [.typedLink(boxes, ObjectKey(Int64(number / 2)))]
        }
        var extras: [String: StorageValue] { ["k": .int(Int64(number)), "none": .null] }
    }

    /// The columns of version 1, in order.
    static let version1Columns = ["id", "tags", "codes", "friends", "notes", "charms", "extras"]

    static func configuration(_ path: String) -> Configuration {
        var configuration = Configuration(schema: Shelf.self, migrations: ShelfSteps())
        configuration.fileURL = URL(fileURLWithPath: path)
        return configuration
    }

    /// Writes version 1 with the columns the object layer would create for it, in commits of 100,000 boxes.
    static func writeVersion1(path: String, count: Int) throws {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none))
        defer { store.close() }
        var written = 0
        repeat {
            let write = try store.beginWrite()
            let catalog = try Catalog(writer: write)
            let table: Table
            if let existing = catalog.table(named: "Box") {
                table = existing
            } else {
                table = try catalog.createTable(named: "Box")
                try table.addColumn(named: "id", type: .value(.int))
                try table.addColumn(named: "tags", type: .list(.string))
                try table.addColumn(named: "codes", type: .list(.int))
                try table.addColumn(named: "friends", type: .list(.link), target: table.key)
                try table.addColumn(named: "notes", type: .map(.string))
                try table.addColumn(named: "charms", type: .list(.mixed), elementsNullable: true)
                try table.addColumn(named: "extras", type: .map(.mixed), elementsNullable: true)
                guard let id = table.column(named: "id") else { throw HelperFailure(description: "no id column") }
                try table.setPrimaryKey(id.key)
                let record = "{\"fingerprints\":{\"1\":\"\(Shelf.fingerprints[1] ?? "")\"},\"schema\":\"Shelf\",\"version\":1}"
                try catalog.setMetadata(Array(record.utf8), forKey: "strata.schema")
            }
            let columns = version1Columns.compactMap { table.column(named: $0)?.key }
            let end = min(count, written + 100_000)
            for number in written..<end {
                let box = Expected(number: number)
                try table.insert(zip(columns, [
                    .int(Int64(number)), .list(box.tags.map { .string($0) }), .list(box.codes.map { .int($0) }),
                    .list(box.friends.map { .link(ObjectKey($0)) }), .map(box.notes),
                    .list(box.charms(boxes: table.key)), .map(box.extras),
                ]).map { ($0, $1) }, key: ObjectKey(Int64(number)))
            }
            written = end
            try catalog.flush()
            try write.commit()
        } while written < count
    }

    /// Checks every box of a file at version 1 through the storage layer: the lists still hold their repeats.
    static func verifyVersion1(path: String, count: Int) throws {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
        defer { store.close() }
        let read = try store.beginRead()
        defer { read.end() }
        let catalog = try Catalog(reader: read)
        guard catalog.tables.count == 1, let table = catalog.table(named: "Box"),
            table.columns.filter({ $0.type != .backlinks }).map(\.name) == version1Columns
        else {
            throw HelperFailure(description: "version 1 tables differ: \(catalog.tables.map { "\($0.name)\($0.columns.map(\.name))" })")
        }
        guard try table.count() == count else { throw HelperFailure(description: "\(try table.count()) boxes, not \(count)") }
        let columns = version1Columns.compactMap { table.column(named: $0)?.key }
        try table.forEachKey { key in
            let box = Expected(number: Int(try table.int(key, column: columns[0]) ?? -1))
            guard try table.list(key, column: columns[1]) == box.tags.map({ .string($0) }),
                try table.list(key, column: columns[2]) == box.codes.map({ .int($0) }),
                try table.list(key, column: columns[3]) == box.friends.map({ .link(ObjectKey($0)) }),
                try table.mapEntries(key, column: columns[4]) == box.notes,
                try table.list(key, column: columns[5]) == box.charms(boxes: table.key),
                try table.mapEntries(key, column: columns[6]) == box.extras
            else { throw HelperFailure(description: "box \(box.number) differs from what version 1 wrote") }
            return true
        }
    }

    /// Checks every box of a migrated file through the object layer.
    static func verifyVersion2(path: String, count: Int) throws {
        try verifyVersion2Columns(path: path)
        let database = try Database(configuration: configuration(path))
        let boxes = database.objects(Box.self)
        guard boxes.count == count else { throw HelperFailure(description: "\(boxes.count) boxes, not \(count)") }
        for box in boxes {
            let expected = Expected(number: box.id)
            guard Array(box.tags) == Set(expected.tags).sorted(),
                Array(box.codes) == Set(expected.codes.map { Int($0) }).sorted(),
                box.labels.keys == ["first", "listed"], box.labels["first"] == expected.tags[0],
                box.labels["listed"] == String(expected.tags.count),
                box.friends.map(\.id) == Set(expected.friends.map { Int($0) }).sorted(),
                try charmsMigrated(box, expected, in: database)
            else { throw HelperFailure(description: "box \(box.id) was not migrated as version 2 says: \(box)") }
        }
        if count > 2, let box = database.object(ofType: Box.self, forPrimaryKey: 1) {
            let befriended = database.objects(Box.self).filter { $0.friends.contains(box) }.count
            guard befriended == [2, 3].filter({ $0 < count }).count else {
                throw HelperFailure(description: "box 1 is in \(befriended) sets of friends, not 2")
            }
        }
    }

    /// Whether a migrated box's `set<any>` holds its old list's charms once each (nils once, the int and the decimal
    /// apart, the link to its earlier box kept), its traits are what the custom step wrote and its marks are empty.
    private static func charmsMigrated(_ box: Box, _ expected: Expected, in database: Database) throws -> Bool {
        let number = expected.number
        var charms: [AnyValue] = [.int(number % 3), .none, .decimal(Decimal(number % 3)), .string("c\(number % 2)")]
        if number > 0 {
            guard let earlier = database.object(ofType: Box.self, forPrimaryKey: number / 2) else {
                throw HelperFailure(description: "box \(number / 2) is missing")
            }
            charms.append(.object(earlier))
        }
        return box.charms.count == charms.count && charms.allSatisfy { box.charms.contains($0) }
            && box.traits.keys == ["first", "k", "listed"] && box.traits["first"] == .int(number % 3)
            && box.traits["k"] == .int(number) && box.traits["listed"] == .int(number == 0 ? 6 : 7)
            && box.marks.isEmpty
    }

    /// Checks through the storage layer that version 2 kept exactly its schema's columns (`notes` and `extras` are
    /// gone), and that the plan's text says the lists lose their repeats.
    static func verifyVersion2Columns(path: String) throws {
        let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
        defer { store.close() }
        let read = try store.beginRead()
        defer { read.end() }
        let names = try Catalog(reader: read).table(named: "Box")?.columns.filter { $0.type != .backlinks }.map(\.name)
        guard let names, Set(names) == ["id", "tags", "codes", "labels", "friends", "charms", "traits", "marks"] else {
            throw HelperFailure(description: "version 2 columns are \(names ?? []), not those of its schema")
        }
        let summary = Shelf.history.plans[0].summary
        guard summary.contains("convert property Box.charms from [any] to set<any> (duplicate elements are dropped)")
        else { throw HelperFailure(description: "the plan does not say that charms lose their repeats: \(summary)") }
    }

    /// Opens the file with the version-2 code, which migrates it, printing progress lines.
    static func migrate(path: String) throws {
        var configuration = configuration(path)
        configuration.migrationProgress = { progress in say("progress \(progress.done) \(progress.total)") }
        let database = try Database(configuration: configuration)
        say("migrated \(database.objects(Box.self).count) objects")
    }
}

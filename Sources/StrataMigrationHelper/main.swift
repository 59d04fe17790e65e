import Foundation
import Strata
import StrataStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Big migrations in a child process, for the kill-during-migration tests and the migration benchmark:
/// `strata-migration-helper <command> <database path> [count]`.
///
/// - `write-v1 PATH COUNT`: writes a file at `Ledger` version 1 holding COUNT entries, through the storage layer
///   (this program's code is at version 3, so it cannot write version 1 objects through the object layer).
/// - `migrate PATH`: opens the file with the version-3 code, which migrates it (a rename, an added property, two
///   widenings and a custom step), printing `progress DONE TOTAL` lines, then
///   `migrated COUNT objects in SECONDS s: OBJECTS_PER_SECOND objects/s, peak memory MIB MiB`.
/// - `bench PATH COUNT`: `write-v1`, then `migrate` (without progress lines), then `verify`: the migration
///   benchmark (build with `-c release`).
/// - `verify PATH COUNT`: checks the file entry by entry, printing `version 1 intact COUNT` or
///   `version 3 migrated COUNT`; exits 1 naming the first difference.
/// - `write-shelf-v1 PATH COUNT`, `migrate-shelf PATH`, `verify-shelf PATH COUNT`: the same for the `Shelf` schema,
///   whose version 2 turns lists into sets (dropping repeats; an `[any]` list into a `set<any>`), drops a
///   `map<any?>` and fills new maps in a custom step; `verify-shelf` prints `version 1 intact COUNT` or
///   `version 2 migrated COUNT`.
/// - `write-embedded-v1 PATH COUNT`, `migrate-embedded PATH`, `verify-embedded PATH COUNT`: the same for
///   `Homestead`, whose version 2 makes a model embedded (``Homestead1To2``).
/// - `write-unembed-v1 PATH COUNT`, `migrate-unembed PATH`, `verify-unembed PATH COUNT`: the same for `Paddock`,
///   whose version 2 makes an embedded model top-level (``Paddock1To2``).
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: strata-migration-helper write-v1 PATH COUNT | migrate PATH | verify PATH COUNT | bench PATH COUNT"
    + " | write-shelf-v1 PATH COUNT | migrate-shelf PATH | verify-shelf PATH COUNT"
    + " | write-embedded-v1 PATH COUNT | migrate-embedded PATH | verify-embedded PATH COUNT"
    + " | write-unembed-v1 PATH COUNT | migrate-unembed PATH | verify-unembed PATH COUNT\n"

/// The custom step of version 3: an entry's score is twice its amount.
struct LedgerSteps: LedgerMigrations {
    func migrateEntry(from old: Ledger.V2.Entry, to new: Entry) throws {
        new.score = Int(old.amount) * 2
    }
}

/// What entry `number` holds at version 1.
struct Expected {
    let number: Int
    var title: String { "entry \(number)" }
    var amount: Int64 { Int64(number % 30_000) }
    var owner: String { "owner \(number % 100)" }
}

struct HelperFailure: Error, CustomStringConvertible {
    let description: String
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func configuration(_ path: String) -> Configuration {
    var configuration = Configuration(schema: Ledger.self, migrations: LedgerSteps())
    configuration.fileURL = URL(fileURLWithPath: path)
    return configuration
}

/// Peak resident memory of this process, in MiB.
func peakMemoryMiB() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576  // bytes on macOS
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1_024  // KiB on Linux
    #endif
}

/// Writes version 1 with the columns the object layer would create for it, in commits of 100,000 entries.
func writeVersion1(path: String, count: Int) throws {
    let store = try Store.open(path: path, options: StoreOptions(durability: .none))
    defer { store.close() }
    var written = 0
    repeat {
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        let table: Table
        if let existing = catalog.table(named: "Entry") {
            table = existing
        } else {
            table = try catalog.createTable(named: "Entry")
            try table.addColumn(named: "id", type: .value(.int))
            try table.addColumn(named: "title", type: .value(.string))
            try table.addColumn(named: "amount", type: .value(.int))
            try table.addColumn(named: "owner", type: .value(.string))
            guard let id = table.column(named: "id") else { throw HelperFailure(description: "no id column") }
            try table.setPrimaryKey(id.key)
            let record = "{\"fingerprints\":{\"1\":\"\(Ledger.fingerprints[1] ?? "")\"},\"schema\":\"Ledger\",\"version\":1}"
            try catalog.setMetadata(Array(record.utf8), forKey: "strata.schema")
        }
        let columns = ["id", "title", "amount", "owner"].compactMap { table.column(named: $0)?.key }
        let end = min(count, written + 100_000)
        for number in written..<end {
            let entry = Expected(number: number)
            try table.insert(zip(columns, [
                .int(Int64(number)), .string(entry.title), .int(entry.amount), .string(entry.owner),
            ]).map { ($0, $1) })
        }
        written = end
        try catalog.flush()
        try write.commit()
    } while written < count
}

/// The version the file records, read without opening it through the object layer (which would migrate it).
func recordedVersion(path: String) throws -> Int {
    let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
    defer { store.close() }
    let read = try store.beginRead()
    defer { read.end() }
    guard let bytes = try Catalog(reader: read).metadata(forKey: "strata.schema"),
        let record = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
        let version = record["version"] as? Int
    else { throw HelperFailure(description: "the file has no readable schema record") }
    return version
}

/// Checks every entry of a file at version 1 through the storage layer.
func verifyVersion1(path: String, count: Int) throws {
    let store = try Store.open(path: path, options: StoreOptions(durability: .none, readOnly: true))
    defer { store.close() }
    let read = try store.beginRead()
    defer { read.end() }
    let catalog = try Catalog(reader: read)
    guard catalog.tables.count == 1, let table = catalog.table(named: "Entry"),
        table.columns.map(\.name) == ["id", "title", "amount", "owner"]
    else {
        throw HelperFailure(description: "version 1 tables differ: \(catalog.tables.map { "\($0.name)\($0.columns.map(\.name))" })")
    }
    guard try table.count() == count else { throw HelperFailure(description: "\(try table.count()) entries, not \(count)") }
    let columns = ["id", "title", "amount", "owner"].compactMap { table.column(named: $0)?.key }
    try table.forEachKey { key in
        let number = Int(try table.int(key, column: columns[0]) ?? -1)
        let entry = Expected(number: number)
        guard try table.string(key, column: columns[1]) == entry.title,
            try table.int(key, column: columns[2]) == entry.amount,
            try table.string(key, column: columns[3]) == entry.owner
        else { throw HelperFailure(description: "entry \(number) differs from what version 1 wrote") }
        return true
    }
}

/// Checks every entry of a migrated file through the object layer.
func verifyVersion3(path: String, count: Int) throws {
    let database = try Database(configuration: configuration(path))
    let entries = database.objects(Entry.self)
    guard entries.count == count else { throw HelperFailure(description: "\(entries.count) entries, not \(count)") }
    for entry in entries {
        let expected = Expected(number: entry.id)
        guard entry.label == expected.title, Int64(entry.amount) == expected.amount, entry.owner == expected.owner,
            entry.score == Int(expected.amount) * 2, !entry.flagged
        else { throw HelperFailure(description: "entry \(entry.id) was not migrated as version 3 says") }
    }
}

/// Opens the file with the version-3 code, which migrates it, and prints how fast and in how much memory.
func migrate(path: String, showingProgress: Bool) throws {
    var configuration = configuration(path)
    if showingProgress {
        configuration.migrationProgress = { progress in say("progress \(progress.done) \(progress.total)") }
    }
    let start = Date()
    let database = try Database(configuration: configuration)
    let seconds = Date().timeIntervalSince(start)
    let count = database.objects(Entry.self).count
    say(String(
        format: "migrated %d objects in %.2f s: %.0f objects/s, peak memory %.1f MiB", count, seconds,
        Double(count) / max(seconds, 0.000_001), peakMemoryMiB()))
}

do {
    switch (arguments.first, arguments.count) {
    case ("write-v1", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try writeVersion1(path: arguments[1], count: count)
        say("wrote \(count)")
    case ("migrate", 2):
        try migrate(path: arguments[1], showingProgress: true)
    case ("bench", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try writeVersion1(path: arguments[1], count: count)
        try migrate(path: arguments[1], showingProgress: false)
        try verifyVersion3(path: arguments[1], count: count)
    case ("write-shelf-v1", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try ShelfFile.writeVersion1(path: arguments[1], count: count)
        say("wrote \(count)")
    case ("migrate-shelf", 2):
        try ShelfFile.migrate(path: arguments[1])
    case ("verify-shelf", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        let version = try recordedVersion(path: arguments[1])
        switch version {
        case 1: try ShelfFile.verifyVersion1(path: arguments[1], count: count)
        case 2: try ShelfFile.verifyVersion2(path: arguments[1], count: count)
        default: throw HelperFailure(description: "the file records version \(version), neither 1 nor 2")
        }
        say("version \(version) \(version == 1 ? "intact" : "migrated") \(count)")
    case ("verify", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        let version = try recordedVersion(path: arguments[1])
        switch version {
        case 1: try verifyVersion1(path: arguments[1], count: count)
        case 3: try verifyVersion3(path: arguments[1], count: count)
        default: throw HelperFailure(description: "the file records version \(version), neither 1 nor 3")
        }
        say("version \(version) \(version == 1 ? "intact" : "migrated") \(count)")
    case ("write-embedded-v1", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try Homestead1To2.write(path: arguments[1], count: count)
        say("wrote \(count)")
    case ("migrate-embedded", 2):
        try Homestead1To2.migrate(path: arguments[1])
    case ("verify-embedded", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try Homestead1To2.verify(path: arguments[1], count: count)
    case ("write-unembed-v1", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try Paddock1To2.write(path: arguments[1], count: count)
        say("wrote \(count)")
    case ("migrate-unembed", 2):
        try Paddock1To2.migrate(path: arguments[1])
    case ("verify-unembed", 3):
        guard let count = Int(arguments[2]) else { throw HelperFailure(description: usage) }
        try Paddock1To2.verify(path: arguments[1], count: count)
    default:
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("strata-migration-helper: \(error)\n".utf8))
    exit(1)
}

import ArgumentParser
import CSQLite
import Foundation
import Strata

/// `strata-bench values`: snapshots and JSON export and import of `--count` objects (1,000,000 by default) in
/// Strata, against SQLite rows read into `Codable` structs the way GRDB users do it.
///
/// - `V-snapshots`: Strata's `results.snapshots()` of every entry; SQLite steps `SELECT *` and decodes each row's
///   columns into an `EntryRow` struct.
/// - `V-export`: Strata's `db.exportJSON(Entry.self)`; SQLite reads the structs as above and encodes them with
///   `JSONEncoder`.
/// - `V-import`: Strata's `db.importJSON(_:into:)` of that export into an empty file; SQLite decodes its export
///   with `JSONDecoder` and inserts the structs with one prepared statement in one transaction.
///
/// Figures are seconds (lower is better) and the ratio is Strata's time over SQLite's. Both files have no
/// durability cost (Strata `.none`, SQLite `synchronous=OFF` with a WAL).
struct ValuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "values", abstract: "Snapshots and JSON export/import against SQLite rows in Codable structs.")

    @Option(help: "Objects (rows) of the benchmark.")
    var count = 1_000_000

    @Flag(help: "Print {\"workloads\": [...]} instead of a table.")
    var json = false

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-values-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = EntryRow.generate(count)

        let db = try Database(configuration: configuration(directory, "values.strata"))
        try db.write { for row in rows { db.add(row.entry) } }
        let sqlite = try EntrySQLite(path: directory.appendingPathComponent("values.sqlite").path)
        try sqlite.insert(rows)

        var strataSnapshots: [Entry.Snapshot] = []
        let strataSnapshotTime = try seconds { strataSnapshots = db.objects(Entry.self).snapshots() }
        var sqliteRows: [EntryRow] = []
        let sqliteSnapshotTime = try seconds { sqliteRows = try sqlite.readAll() }
        guard strataSnapshots.count == count, sqliteRows.count == count else {
            throw BenchmarkError("read \(strataSnapshots.count) snapshots and \(sqliteRows.count) rows of \(count)")
        }
        strataSnapshots = []
        sqliteRows = []

        var strataJSON = Data()
        let strataExportTime = try seconds { strataJSON = try db.exportJSON(Entry.self) }
        var sqliteJSON = Data()
        let sqliteExportTime = try seconds { sqliteJSON = try JSONEncoder().encode(try sqlite.readAll()) }

        let target = try Database(configuration: configuration(directory, "imported.strata"))
        var imported = 0
        let strataImportTime = try seconds { imported = try target.importJSON(strataJSON, into: Entry.self) }
        let sqliteTarget = try EntrySQLite(path: directory.appendingPathComponent("imported.sqlite").path)
        let sqliteImportTime = try seconds {
            try sqliteTarget.insert(try JSONDecoder().decode([EntryRow].self, from: sqliteJSON))
        }
        guard imported == count, try sqliteTarget.count() == count, target.objects(Entry.self).count == count else {
            throw BenchmarkError("imported \(imported) objects and \(try sqliteTarget.count()) rows of \(count)")
        }
        try sqlite.close()
        try sqliteTarget.close()
        if !json {
            print("JSON: Strata \(strataJSON.count / 1_048_576) MiB, SQLite's Codable rows \(sqliteJSON.count / 1_048_576) MiB")
        }
        try report([
            ("V-snapshots", strataSnapshotTime, sqliteSnapshotTime),
            ("V-export", strataExportTime, sqliteExportTime),
            ("V-import", strataImportTime, sqliteImportTime),
        ])
    }

    private func configuration(_ directory: URL, _ name: String) -> Configuration {
        var configuration = Configuration(schema: Ledgers.self)
        configuration.fileURL = directory.appendingPathComponent(name)
        configuration.durability = .none
        return configuration
    }

    private func seconds(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func report(_ rows: [(id: String, strata: Double, sqlite: Double)]) throws {
        if json {
            let entries: [[String: Any]] = rows.map {
                ["id": $0.id, "unit": "s", "count": count, "strata": $0.strata, "sqlite": $0.sqlite,
                 "ratio": $0.sqlite > 0 ? $0.strata / $0.sqlite : NSNull()]
            }
            let data = try JSONSerialization.data(
                withJSONObject: ["workloads": entries], options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("workload      objects     Strata s    SQLite+Codable s   Strata/SQLite")
        for row in rows {
            print(
                row.id.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(count).padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: "%-12.3f%-19.3f%.2f", row.strata, row.sqlite, row.strata / max(row.sqlite, 1e-12)))
        }
    }
}

/// One entry as a GRDB user's record: a `Codable` struct whose stored properties are the table's columns.
struct EntryRow: Codable {
    var id: Int
    var payee: String
    var amount: Double
    var units: Int
    var booked: Date
    var cleared: Bool
    var memo: String?

    /// `count` entries from a fixed seed.
    static func generate(_ count: Int) -> [EntryRow] {
        var random = SplitMix(state: 29)
        let payees = (0..<1_000).map { "Payee \($0) \(String(repeating: "x", count: $0 % 13))" }
        return (0..<count).map { id in
            EntryRow(
                id: id, payee: payees[Int.random(in: 0..<payees.count, using: &random)],
                amount: Double(Int.random(in: -100_000...100_000, using: &random)) / 100,
                units: Int.random(in: 1...50, using: &random),
                booked: Date(timeIntervalSince1970: Double(1_600_000_000 + Int.random(in: 0..<100_000_000, using: &random))),
                cleared: Bool.random(using: &random), memo: id % 3 == 0 ? nil : "memo \(id % 97)")
        }
    }

    /// An unmanaged Strata entry with these values.
    var entry: Entry {
        Entry(id: id, payee: payee, amount: amount, units: units, booked: booked, cleared: cleared, memo: memo)
    }
}

/// SQLite with one `entry` table, read and written through prepared statements.
final class EntrySQLite: SQLiteStatements {
    private(set) var db: OpaquePointer?
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchmarkError("sqlite3_open_v2(\(path)) failed")
        }
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF")
        try execute("""
            CREATE TABLE entry (id INTEGER PRIMARY KEY, payee TEXT NOT NULL, amount REAL NOT NULL,
            units INTEGER NOT NULL, booked REAL NOT NULL, cleared INTEGER NOT NULL, memo TEXT)
            """)
    }

    /// Inserts `rows` in one transaction.
    func insert(_ rows: [EntryRow]) throws {
        try execute("BEGIN")
        let statement = try prepare("INSERT INTO entry VALUES (?, ?, ?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        for row in rows {
            sqlite3_bind_int64(statement, 1, Int64(row.id))
            sqlite3_bind_text(statement, 2, row.payee, -1, Self.transient)
            sqlite3_bind_double(statement, 3, row.amount)
            sqlite3_bind_int64(statement, 4, Int64(row.units))
            sqlite3_bind_double(statement, 5, row.booked.timeIntervalSince1970)
            sqlite3_bind_int(statement, 6, row.cleared ? 1 : 0)
            if let memo = row.memo { sqlite3_bind_text(statement, 7, memo, -1, Self.transient) } else { sqlite3_bind_null(statement, 7) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw error("insert") }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }

    /// Every row, stepped and decoded column by column into structs.
    func readAll() throws -> [EntryRow] {
        let statement = try prepare("SELECT id, payee, amount, units, booked, cleared, memo FROM entry")
        defer { sqlite3_finalize(statement) }
        var rows: [EntryRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error("select") }
            rows.append(EntryRow(
                id: Int(sqlite3_column_int64(statement, 0)), payee: String(cString: sqlite3_column_text(statement, 1)),
                amount: sqlite3_column_double(statement, 2), units: Int(sqlite3_column_int64(statement, 3)),
                booked: Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)),
                cleared: sqlite3_column_int(statement, 5) != 0,
                memo: sqlite3_column_type(statement, 6) == SQLITE_NULL ? nil : String(cString: sqlite3_column_text(statement, 6))))
        }
        return rows
    }

    /// The rows of the table.
    func count() throws -> Int {
        let statement = try prepare("SELECT count(*) FROM entry")
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error("count") }
        return Int(sqlite3_column_int64(statement, 0))
    }

    func close() throws {
        guard sqlite3_close(db) == SQLITE_OK else { throw error("close") }
        db = nil
    }
}

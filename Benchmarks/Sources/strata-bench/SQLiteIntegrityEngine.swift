import CSQLite
import Foundation

/// `Registry` in SQLite as a SQLite user would write it: `signup.email TEXT NOT NULL UNIQUE`, and
/// `piece.parcel_id REFERENCES parcel (id) ON DELETE CASCADE` with foreign keys enforced (`PRAGMA foreign_keys=ON`)
/// and an index on the child column (without one, every parent delete scans the pieces). WAL,
/// `synchronous=NORMAL` (Strata runs `.batched`).
final class SQLiteIntegrityEngine: IntegrityEngine, SQLiteStatements {
    private(set) var db: OpaquePointer?

    init(directory: URL) throws {
        let path = directory.appendingPathComponent("registry.sqlite").path
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(status)"
            sqlite3_close(db)
            throw BenchmarkError("sqlite3_open_v2(\(path)): \(message)")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
        try execute("CREATE TABLE signup (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE)")
        try execute("CREATE TABLE parcel (id INTEGER PRIMARY KEY)")
        try execute(
            "CREATE TABLE piece (id INTEGER PRIMARY KEY, parcel_id INTEGER NOT NULL REFERENCES parcel (id) "
                + "ON DELETE CASCADE, weight INTEGER NOT NULL)")
        try execute("CREATE INDEX piece_parcel ON piece (parcel_id)")
    }

    func insertSignups(count: Int) throws {
        try execute("BEGIN")
        let insert = try prepare("INSERT INTO signup (id, email) VALUES (?, ?)")
        defer { sqlite3_finalize(insert) }
        for index in 0..<count {
            sqlite3_bind_int64(insert, 1, Int64(index))
            _ = IntegrityData.email(index).withCString { sqlite3_bind_text(insert, 2, $0, -1, Self.transient) }
            try step(insert, expecting: SQLITE_DONE)
            sqlite3_reset(insert)
        }
        try execute("COMMIT")
    }

    func insertParcels(parents: Int) throws {
        try execute("BEGIN")
        let parcel = try prepare("INSERT INTO parcel (id) VALUES (?)")
        defer { sqlite3_finalize(parcel) }
        let piece = try prepare("INSERT INTO piece (parcel_id, weight) VALUES (?, ?)")
        defer { sqlite3_finalize(piece) }
        for index in 0..<parents {
            sqlite3_bind_int64(parcel, 1, Int64(index))
            try step(parcel, expecting: SQLITE_DONE)
            sqlite3_reset(parcel)
            for weight in 0..<IntegrityData.piecesPerParcel {
                sqlite3_bind_int64(piece, 1, Int64(index))
                sqlite3_bind_int64(piece, 2, Int64(weight))
                try step(piece, expecting: SQLITE_DONE)
                sqlite3_reset(piece)
            }
        }
        try execute("COMMIT")
    }

    func deleteParcels() throws {
        try execute("BEGIN")
        try execute("DELETE FROM parcel")
        try execute("COMMIT")
    }

    func counts() throws -> (signups: Int, parcels: Int, pieces: Int) {
        (try count("signup"), try count("parcel"), try count("piece"))
    }

    func close() throws {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
        sqlite3_close(db)
        db = nil
    }

    // MARK: - C API plumbing

    /// `SQLITE_TRANSIENT`: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func count(_ table: String) throws -> Int {
        let statement = try prepare("SELECT count(*) FROM \(table)")
        defer { sqlite3_finalize(statement) }
        try step(statement, expecting: SQLITE_ROW)
        return Int(sqlite3_column_int64(statement, 0))
    }
}

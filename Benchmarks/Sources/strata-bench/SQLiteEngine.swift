import CSQLite
import Foundation

/// SQLite through its C API as its own documentation recommends for speed: WAL, prepared statements, one
/// transaction for bulk work, reads inside one read transaction.
final class SQLiteEngine: BenchmarkEngine, SQLiteStatements {
    static let name = "SQLite"

    private(set) var db: OpaquePointer?
    private let path: String

    init(directory: URL, durability: BenchmarkDurability) throws {
        path = directory.appendingPathComponent("bench.sqlite").path
        db = try Self.open(path)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=\(durability == .full ? "FULL" : "NORMAL")")
        try execute(
            "CREATE TABLE IF NOT EXISTS employee (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                + "age INTEGER NOT NULL, hired INTEGER NOT NULL, salary REAL NOT NULL)")
        try execute(
            "CREATE TABLE IF NOT EXISTS indexed_employee (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                + "age INTEGER NOT NULL, hired INTEGER NOT NULL, salary REAL NOT NULL)")
        try execute("CREATE INDEX IF NOT EXISTS indexed_employee_name ON indexed_employee (name)")
    }

    private static func open(_ path: String) throws -> OpaquePointer? {
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(status)"
            sqlite3_close(handle)
            throw BenchmarkError("sqlite3_open_v2(\(path)): \(message)")
        }
        return handle
    }

    func insertEmployees() throws {
        try insert(into: "employee")
    }

    func insertIndexedEmployees() throws {
        try insert(into: "indexed_employee")
    }

    private func insert(into table: String) throws {
        try execute("BEGIN")
        let statement = try prepare("INSERT INTO \(table) (id, name, age, hired, salary) VALUES (?, ?, ?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        for i in 0..<EmployeeData.count {
            sqlite3_bind_int64(statement, 1, Int64(i))
            let name = EmployeeData.name(i)
            _ = name.withCString { sqlite3_bind_text(statement, 2, $0, -1, SQLiteEngine.transient) }
            sqlite3_bind_int64(statement, 3, Int64(EmployeeData.age(i)))
            sqlite3_bind_int(statement, 4, EmployeeData.hired(i) ? 1 : 0)
            sqlite3_bind_double(statement, 5, EmployeeData.salary(i))
            try step(statement, expecting: SQLITE_DONE)
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }

    func countOlderHired() throws -> Int {
        let statement = try prepare("SELECT count(*) FROM employee WHERE age > 50 AND hired = 1")
        defer { sqlite3_finalize(statement) }
        try step(statement, expecting: SQLITE_ROW)
        return Int(sqlite3_column_int64(statement, 0))
    }

    func enumerateTwenties() throws -> (count: Int, salarySum: Double) {
        // GLOB, not LIKE: BEGINSWITH is case-sensitive, as GLOB is.
        let statement = try prepare(
            "SELECT name, salary FROM employee WHERE age >= 20 AND age < 30 AND name GLOB 'name-1*'")
        defer { sqlite3_finalize(statement) }
        var count = 0
        var sum = 0.0
        while sqlite3_step(statement) == SQLITE_ROW {
            let name = sqlite3_column_text(statement, 0)
            count += name == nil ? 0 : 1
            sum += sqlite3_column_double(statement, 1)
        }
        return (count, sum)
    }

    func enumerateIndexedTwenties() throws -> (count: Int, salarySum: Double) {
        // The planner may take the name index for GLOB's constant prefix (GLOB is case-sensitive, like the index).
        let statement = try prepare(
            "SELECT name, salary FROM indexed_employee WHERE age >= 20 AND age < 30 AND name GLOB 'name-1*'")
        defer { sqlite3_finalize(statement) }
        var count = 0
        var sum = 0.0
        while sqlite3_step(statement) == SQLITE_ROW {
            count += sqlite3_column_text(statement, 0) == nil ? 0 : 1
            sum += sqlite3_column_double(statement, 1)
        }
        return (count, sum)
    }

    func lookUpIndexedSalaries(names: [String]) throws -> Double {
        try execute("BEGIN")
        let statement = try prepare("SELECT salary FROM indexed_employee WHERE name = ?")
        defer { sqlite3_finalize(statement) }
        var sum = 0.0
        for name in names {
            _ = name.withCString { sqlite3_bind_text(statement, 1, $0, -1, SQLiteEngine.transient) }
            while sqlite3_step(statement) == SQLITE_ROW { sum += sqlite3_column_double(statement, 0) }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
        return sum
    }

    func lookUpNames(ids: [Int]) throws -> Int {
        try execute("BEGIN")
        let statement = try prepare("SELECT name FROM employee WHERE id = ?")
        defer { sqlite3_finalize(statement) }
        var total = 0
        for id in ids {
            sqlite3_bind_int64(statement, 1, Int64(id))
            if sqlite3_step(statement) == SQLITE_ROW {
                total += Int(sqlite3_column_bytes(statement, 0))
            }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
        return total
    }

    func updateSalaries(ids: [Int]) throws -> Int {
        let statement = try prepare("UPDATE employee SET salary = ? WHERE id = ?")
        defer { sqlite3_finalize(statement) }
        var changed = 0
        for (n, id) in ids.enumerated() {
            try execute("BEGIN")
            sqlite3_bind_double(statement, 1, Double(n))
            sqlite3_bind_int64(statement, 2, Int64(id))
            try step(statement, expecting: SQLITE_DONE)
            changed += sqlite3_changes(db) == 1 ? 1 : 0
            sqlite3_reset(statement)
            try execute("COMMIT")
        }
        return changed
    }

    func close() throws {
        // Fold the WAL into the main file so that W7 measures the database, not a pending log.
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
        sqlite3_close(db)
        db = nil
    }

    static func openAndCount(directory: URL) throws -> Int {
        let engine = try SQLiteEngine(existingIn: directory)
        defer { sqlite3_close(engine.db) }
        let statement = try engine.prepare("SELECT count(*) FROM employee")
        defer { sqlite3_finalize(statement) }
        try engine.step(statement, expecting: SQLITE_ROW)
        return Int(sqlite3_column_int64(statement, 0))
    }

    private init(existingIn directory: URL) throws {
        path = directory.appendingPathComponent("bench.sqlite").path
        db = try Self.open(path)
    }

    static func files(in directory: URL) -> [URL] {
        ["bench.sqlite", "bench.sqlite-wal", "bench.sqlite-shm"].map { directory.appendingPathComponent($0) }
    }

    // MARK: - C API plumbing

    /// `SQLITE_TRANSIENT`: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

import CSQLite
import Foundation

/// The `Census` people in SQLite, laid out as a SQLite user would, one of two ways (`ModelEngineKind`):
///
/// - `tables`: the address in the person's own columns (`home_street`, `home_city`, indexed: one address per
///   person) and the nicknames in a child table `nickname(person_id REFERENCES person, name)` indexed on `name`,
///   with foreign keys enforced (`PRAGMA foreign_keys=ON`).
/// - `json`: the address and the nicknames as JSON text columns, the city reached through an expression index on
///   `json_extract(home, '$.city')`, the nicknames through `json_each` (no index can serve it).
///
/// WAL, `synchronous=NORMAL` (Strata runs `.batched`), statements prepared once per call as the other workloads.
final class SQLiteModelEngine: ModelEngine, SQLiteStatements {
    enum Layout { case tables, json }

    private(set) var db: OpaquePointer?
    private let layout: Layout

    init(directory: URL, layout: Layout) throws {
        self.layout = layout
        let path = directory.appendingPathComponent("census.sqlite").path
        let status = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(status)"
            sqlite3_close(db)
            throw BenchmarkError("sqlite3_open_v2(\(path)): \(message)")
        }
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
        switch layout {
        case .tables:
            try execute("PRAGMA foreign_keys=ON")
            try execute(
                "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, home_street TEXT, home_city TEXT)")
            try execute("CREATE INDEX person_home_city ON person (home_city)")
            try execute(
                "CREATE TABLE nickname (person_id INTEGER NOT NULL REFERENCES person (id) ON DELETE CASCADE, "
                    + "name TEXT NOT NULL)")
            try execute("CREATE INDEX nickname_name ON nickname (name)")
            // The foreign key's own index (SQLite's advice: a child key without one scans on every parent delete).
            try execute("CREATE INDEX nickname_person ON nickname (person_id)")
        case .json:
            try execute("CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL, home TEXT, nicknames TEXT)")
            try execute("CREATE INDEX person_home_city ON person (json_extract(home, '$.city'))")
        }
    }

    func insert(_ data: CensusData) throws {
        try execute("BEGIN")
        switch layout {
        case .tables:
            let person = try prepare("INSERT INTO person (id, name, home_street, home_city) VALUES (?, ?, ?, ?)")
            defer { sqlite3_finalize(person) }
            let nickname = try prepare("INSERT INTO nickname (person_id, name) VALUES (?, ?)")
            defer { sqlite3_finalize(nickname) }
            for i in 0..<data.count {
                sqlite3_bind_int64(person, 1, Int64(i))
                bind(data.name(i), to: person, at: 2)
                bind(data.street(i), to: person, at: 3)
                bind(data.city(i), to: person, at: 4)
                try step(person, expecting: SQLITE_DONE)
                sqlite3_reset(person)
                for name in data.nicknames(i) {
                    sqlite3_bind_int64(nickname, 1, Int64(i))
                    bind(name, to: nickname, at: 2)
                    try step(nickname, expecting: SQLITE_DONE)
                    sqlite3_reset(nickname)
                }
            }
        case .json:
            let person = try prepare("INSERT INTO person (id, name, home, nicknames) VALUES (?, ?, ?, ?)")
            defer { sqlite3_finalize(person) }
            for i in 0..<data.count {
                sqlite3_bind_int64(person, 1, Int64(i))
                bind(data.name(i), to: person, at: 2)
                // The values are plain ASCII (digits, letters, spaces, dashes): no escaping needed.
                bind("{\"street\":\"\(data.street(i))\",\"city\":\"\(data.city(i))\"}", to: person, at: 3)
                bind("[" + data.nicknames(i).map { "\"\($0)\"" }.joined(separator: ",") + "]", to: person, at: 4)
                try step(person, expecting: SQLITE_DONE)
                sqlite3_reset(person)
            }
        }
        try execute("COMMIT")
    }

    func countNickname(_ nickname: String) throws -> Int {
        switch layout {
        case .tables:
            try count(
                "SELECT count(*) FROM person WHERE id IN (SELECT person_id FROM nickname WHERE name = ?)", nickname)
        case .json:
            try count(
                "SELECT count(*) FROM person WHERE EXISTS (SELECT 1 FROM json_each(person.nicknames) WHERE value = ?)",
                nickname)
        }
    }

    func countCity(_ city: String) throws -> Int {
        switch layout {
        case .tables: try count("SELECT count(*) FROM person WHERE home_city = ?", city)
        case .json: try count("SELECT count(*) FROM person WHERE json_extract(home, '$.city') = ?", city)
        }
    }

    func close() throws {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
        sqlite3_close(db)
        db = nil
    }

    // MARK: - C API plumbing

    private func count(_ sql: String, _ argument: String) throws -> Int {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        bind(argument, to: statement, at: 1)
        try step(statement, expecting: SQLITE_ROW)
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the bound text.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func bind(_ text: String, to statement: OpaquePointer?, at index: Int32) {
        _ = text.withCString { sqlite3_bind_text(statement, index, $0, -1, Self.transient) }
    }
}

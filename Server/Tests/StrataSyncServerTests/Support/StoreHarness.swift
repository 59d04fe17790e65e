import Logging
import PostgresNIO
import XCTest

@testable import StrataSyncServer

/// A migrated `SyncStore` on a test schema, with shortcuts for uploading and reading the typed tables.
struct StoreHarness {
    let store: SyncStore
    let client: PostgresClient
    let schema: String

    /// Migrates the notes schema (or `texts`) into `schema` and returns a store on it.
    static func make(
        _ client: PostgresClient, schema: String, texts: [String] = [Fixtures.notesV1],
        rules: String = Fixtures.rules
    ) async throws -> StoreHarness {
        let store = SyncStore(
            schema: try Fixtures.schema(texts), rules: try AccessRules(yaml: rules), client: client,
            databaseSchema: schema, logger: TestPostgres.logger)
        try await store.migrate()
        return StoreHarness(store: store, client: client, schema: schema)
    }

    /// Uploads `changes` as `client` for `user`.
    @discardableResult
    func upload(_ changes: [SyncChange], client clientID: String, user: String) async throws -> UploadResponse {
        try await store.upload(UploadRequest(clientId: clientID, changes: changes), user: user)
    }

    /// Rows of `sql` where `S.` stands for the test's PostgreSQL schema.
    func rows(_ sql: String) async throws -> [[String?]] {
        try await TestPostgres.rows(sql.replacingOccurrences(of: "S.", with: "\"\(schema)\"."), client)
    }

    /// Asserts that `sql` (with `S.` for the test's schema) returns `expected`.
    func expectRows(
        _ sql: String, _ expected: [[String?]], _ message: String = "", file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        let actual = try await rows(sql)
        XCTAssertEqual(actual, expected, message, file: file, line: line)
    }

    /// A note's create change.
    static func createNote(
        _ id: String, seq: Int64, hlc: String, owner: String = "alice", title: String = "t"
    ) -> SyncChange {
        SyncChange(
            seq: seq, hlc: hlc, model: "Note", object: .string(id), op: .create,
            value: .object([
                "ownerId": .string(owner), "title": .string(title), "count": .integer(1), "small": .integer(2),
                "done": .bool(false), "extra": .null, "kind": .string("plain"),
            ]))
    }
}

import XCTest

@testable import StrataSyncServer

/// The typed tables: one per model with a column per scalar property, link tables for collections, and their
/// migration to a newer schema version.
final class SchemaMappingTests: XCTestCase {
    func testCreatesTypedTablesWithNaturalTypes() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let columns = try await harness.rows(
                """
                SELECT table_name::text, column_name::text, data_type::text FROM information_schema.columns
                WHERE table_schema = '\(schema)' AND table_name IN ('Note', 'Tag', 'Note.tags', 'Note.labels',
                    'Note.scores') ORDER BY 1, 2
                """)
            let types = Dictionary(uniqueKeysWithValues: columns.map { ("\($0[0]!).\($0[1]!)", $0[2]!) })
            XCTAssertEqual(types["Note.id"], "text")
            XCTAssertEqual(types["Note.count"], "bigint")
            XCTAssertEqual(types["Note.small"], "smallint")
            XCTAssertEqual(types["Note.rating"], "double precision")
            XCTAssertEqual(types["Note.done"], "boolean")
            XCTAssertEqual(types["Note.due"], "timestamp with time zone")
            XCTAssertEqual(types["Note.blob"], "bytea")
            XCTAssertEqual(types["Note.ref"], "uuid")
            XCTAssertEqual(types["Note.price"], "numeric")
            XCTAssertEqual(types["Note.extra"], "jsonb")
            XCTAssertNil(types["Note.tags"], "collections live in link tables, not columns")
            XCTAssertEqual(types["Tag._syncId"], "uuid", "a model without a primary key is keyed by a sync id")
            XCTAssertEqual(types["Note.tags.owner"], "text")
            XCTAssertEqual(types["Note.tags.position"], "text")
            XCTAssertEqual(types["Note.labels.value"], "text")
            XCTAssertEqual(types["Note.scores.key"], "text")
            XCTAssertEqual(types["Note.scores.value"], "bigint")
            let log = try await harness.rows(
                "SELECT count(*)::text FROM information_schema.tables WHERE table_schema = '\(schema)' "
                    + "AND table_name = 'strata_sync_changes'")
            XCTAssertEqual(log.first?.first, "1")
            // Migrating again to the same version changes nothing and does not fail.
            try await harness.store.migrate()
        }
    }

    func testMigratesToNewerVersionKeepingData() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let v1 = try await StoreHarness.make(client, schema: schema)
            try await v1.upload(
                [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"), title: "kept")],
                client: "c1", user: "alice")
            let v2 = try await StoreHarness.make(client, schema: schema, texts: [Fixtures.notesV1, Fixtures.notesV2])
            let columns = Set(
                try await v2.rows(
                    "SELECT column_name::text FROM information_schema.columns WHERE table_schema = '\(schema)' "
                        + "AND table_name = 'Note'"
                ).map { $0[0]! })
            XCTAssertTrue(columns.contains("heading"))
            XCTAssertTrue(columns.contains("pinned"))
            XCTAssertFalse(columns.contains("title"))
            XCTAssertFalse(columns.contains("count"))
            let tables = Set(
                try await v2.rows(
                    "SELECT table_name::text FROM information_schema.tables WHERE table_schema = '\(schema)'"
                ).map { $0[0]! })
            XCTAssertTrue(tables.contains("Folder"))
            XCTAssertFalse(tables.contains("Tag"), "a removed model's table is dropped")
            XCTAssertFalse(tables.contains("Note.labels"), "a removed collection's link table is dropped")
            XCTAssertTrue(tables.contains("Note.tags"))
            let heading = try await v2.rows("SELECT heading FROM S.\"Note\" WHERE id = 'n1'")
            XCTAssertEqual(heading.first?.first, "kept", "a renamed property keeps its values")

            // The old version's files are refused once the database follows the newer one.
            let old = SyncStore(
                schema: try Fixtures.schema([Fixtures.notesV1]), rules: try AccessRules(yaml: Fixtures.rules),
                client: client, databaseSchema: schema, logger: TestPostgres.logger)
            do {
                try await old.migrate()
                XCTFail("migrating back to version 1 succeeded")
            } catch let error as SyncSchemaError {
                XCTAssertTrue(error.description.contains("newer than the files' version 1"), error.description)
            }
        }
    }
}

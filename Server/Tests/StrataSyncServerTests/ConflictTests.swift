import PostgresNIO
import XCTest

@testable import StrataSyncServer

/// The conflict rules of docs/SYNC.md give the same tables whatever order concurrent changes arrive in.
final class ConflictTests: XCTestCase {
    private let note = SyncValue.string("n1")

    private func setTitle(_ title: String, seq: Int64, wall: Int64, client: String) -> SyncChange {
        SyncChange(
            seq: seq, hlc: Fixtures.hlc(wall, client), model: "Note", object: note, op: .set,
            property: "title", value: .string(title))
    }

    /// Creates n1 through client c0, then uploads `batches` (client, changes) in order; returns the harness.
    private func run(_ batches: [(String, [SyncChange])], in schema: String, client: PostgresClient) async throws
        -> StoreHarness
    {
        let harness = try await StoreHarness.make(client, schema: schema)
        try await harness.upload(
            [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(100, "c0"))],
            client: "c0", user: "alice")
        for (clientID, changes) in batches {
            try await harness.upload(changes, client: clientID, user: "alice")
        }
        return harness
    }

    func testLastWriterWinsByClockWhateverTheArrivalOrder() async throws {
        let early = ("c1", [setTitle("early", seq: 1, wall: 2000, client: "c1")])
        let late = ("c2", [setTitle("late", seq: 1, wall: 3000, client: "c2")])
        for order in [[early, late], [late, early]] {
            try await TestPostgres.withDatabase { client, schema in
                let harness = try await run(order, in: schema, client: client)
                try await harness.expectRows("SELECT title FROM S.\"Note\"", [["late"]])
            }
        }
    }

    func testEqualClocksAreBrokenByClientID() async throws {
        let a = ("ca", [setTitle("from a", seq: 1, wall: 2000, client: "ca")])
        let b = ("cb", [setTitle("from b", seq: 1, wall: 2000, client: "cb")])
        for order in [[a, b], [b, a]] {
            try await TestPostgres.withDatabase { client, schema in
                let harness = try await run(order, in: schema, client: client)
                try await harness.expectRows("SELECT title FROM S.\"Note\"", [["from b"]])
            }
        }
    }

    func testDeleteWinsOverConcurrentUpdates() async throws {
        let delete = (
            "c1", [SyncChange(seq: 1, hlc: Fixtures.hlc(2000, "c1"), model: "Note", object: note, op: .delete)]
        )
        // The update's clock is later than the delete's: it is concurrent (its client had not seen the delete).
        let update = (
            "c2",
            [
                setTitle("edited", seq: 1, wall: 3000, client: "c2"),
                SyncChange(
                    seq: 2, hlc: Fixtures.hlc(3001, "c2"), model: "Note", object: note, op: .listInsert,
                    property: "tags", value: .string("x"), element: "e1", position: "a"),
            ]
        )
        for order in [[delete, update], [update, delete]] {
            try await TestPostgres.withDatabase { client, schema in
                let harness = try await run(order, in: schema, client: client)
                try await harness.expectRows("SELECT count(*)::text FROM S.\"Note\"", [["0"]])
                try await harness.expectRows("SELECT count(*)::text FROM S.\"Note.tags\"", [["0"]])
                // Both are in the log: every client applies the same rules to the same changes.
                try await harness.expectRows("SELECT count(*)::text FROM S.strata_sync_changes", [["4"]])
            }
        }
        // A create with a later clock than the delete starts a new life.
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await run([delete], in: schema, client: client)
            try await harness.upload(
                [StoreHarness.createNote("n1", seq: 2, hlc: Fixtures.hlc(4000, "c0"), title: "again")],
                client: "c0", user: "alice")
            try await harness.expectRows("SELECT title FROM S.\"Note\"", [["again"]])
        }
    }

    func testConcurrentListInsertsBothSurviveInOneOrder() async throws {
        // Both clients insert at the same position (between the same neighbours) without seeing each other.
        func insert(_ value: String, client: String, wall: Int64) -> (String, [SyncChange]) {
            (
                client,
                [
                    SyncChange(
                        seq: 1, hlc: Fixtures.hlc(wall, client), model: "Note", object: note,
                        op: .listInsert, property: "tags", value: .string(value), element: Fixtures.hlc(wall, client),
                        position: "m")
                ]
            )
        }
        let a = insert("from a", client: "ca", wall: 2000)
        let b = insert("from b", client: "cb", wall: 2000)
        for order in [[a, b], [b, a]] {
            try await TestPostgres.withDatabase { client, schema in
                let harness = try await run(order, in: schema, client: client)
                let list = try await harness.rows(
                    "SELECT value FROM S.\"Note.tags\" WHERE owner = 'n1' ORDER BY position, element")
                XCTAssertEqual(list, [["from a"], ["from b"]])
            }
        }
    }

    func testSetAndMapMergeElementByElement() async throws {
        let c1 = (
            "c1",
            [
                SyncChange(
                    seq: 1, hlc: Fixtures.hlc(2000, "c1"), model: "Note", object: note, op: .setAdd,
                    property: "labels", value: .string("a")),
                SyncChange(
                    seq: 2, hlc: Fixtures.hlc(2001, "c1"), model: "Note", object: note, op: .mapSet,
                    property: "scores", value: .integer(1), key: "x"),
            ]
        )
        let c2 = (
            "c2",
            [
                SyncChange(
                    seq: 1, hlc: Fixtures.hlc(2500, "c2"), model: "Note", object: note, op: .setAdd,
                    property: "labels", value: .string("b")),
                SyncChange(
                    seq: 2, hlc: Fixtures.hlc(2600, "c2"), model: "Note", object: note, op: .setRemove,
                    property: "labels", value: .string("a")),
                SyncChange(
                    seq: 3, hlc: Fixtures.hlc(2700, "c2"), model: "Note", object: note, op: .mapSet,
                    property: "scores", value: .integer(2), key: "y"),
            ]
        )
        for order in [[c1, c2], [c2, c1]] {
            try await TestPostgres.withDatabase { client, schema in
                let harness = try await run(order, in: schema, client: client)
                try await harness.expectRows("SELECT value FROM S.\"Note.labels\" ORDER BY 1", [["b"]])
                try await harness.expectRows(
                    "SELECT key, value::text FROM S.\"Note.scores\" ORDER BY 1",
                    [["x", "1"], ["y", "2"]])
            }
        }
    }
}

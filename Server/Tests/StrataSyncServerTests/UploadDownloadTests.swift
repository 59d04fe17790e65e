import XCTest

@testable import StrataSyncServer

/// Uploads land in the typed tables and the change log in one transaction; downloads return them in order;
/// a retried batch is applied once.
final class UploadDownloadTests: XCTestCase {
    func testRoundTripEveryTypeIntoTypedTablesAndLog() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let id = SyncValue.string("n1")
            let uuid = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
            let changes: [SyncChange] = [
                StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"), title: "hello"),
                SyncChange(
                    seq: 2, hlc: Fixtures.hlc(1001, "c1"), model: "Note", object: id, op: .set,
                    property: "rating", value: .number(4.5)),
                SyncChange(
                    seq: 3, hlc: Fixtures.hlc(1002, "c1"), model: "Note", object: id, op: .set,
                    property: "due", value: .integer(86400)),
                SyncChange(
                    seq: 4, hlc: Fixtures.hlc(1003, "c1"), model: "Note", object: id, op: .set,
                    property: "blob", value: .string("AAEC")),
                SyncChange(
                    seq: 5, hlc: Fixtures.hlc(1004, "c1"), model: "Note", object: id, op: .set,
                    property: "ref", value: .string(uuid)),
                SyncChange(
                    seq: 6, hlc: Fixtures.hlc(1005, "c1"), model: "Note", object: id, op: .set,
                    property: "price", value: .string("12.50")),
                SyncChange(
                    seq: 7, hlc: Fixtures.hlc(1006, "c1"), model: "Note", object: id, op: .set,
                    property: "extra", value: .object(["a": .array([.integer(1), .bool(true)])])),
                SyncChange(
                    seq: 8, hlc: Fixtures.hlc(1007, "c1"), model: "Note", object: id, op: .listInsert,
                    property: "tags", value: .string("red"), element: "e1", position: "m"),
                SyncChange(
                    seq: 9, hlc: Fixtures.hlc(1008, "c1"), model: "Note", object: id, op: .setAdd,
                    property: "labels", value: .string("work")),
                SyncChange(
                    seq: 10, hlc: Fixtures.hlc(1009, "c1"), model: "Note", object: id, op: .mapSet,
                    property: "scores", value: .integer(7), key: "math"),
                SyncChange(
                    seq: 11, hlc: Fixtures.hlc(1010, "c1"), model: "Note", object: id, op: .set,
                    property: "oid", value: .string("5F2B8C1A9D3E4F5A6B7C8D9E")),
            ]
            let response = try await harness.upload(changes, client: "c1", user: "alice")
            XCTAssertEqual(response.accepted, 11)
            XCTAssertEqual(response.acknowledged, 11)
            let row = try await harness.rows(
                """
                SELECT title, "ownerId", count::text, rating::text, done::text, extract(epoch from due)::text,
                    encode(blob, 'base64'), ref::text, price::text, extra::text, kind, oid
                FROM S."Note" WHERE id = 'n1'
                """)
            XCTAssertEqual(
                row.first,
                [
                    "hello", "alice", "1", "4.5", "false", "86400.000000", "AAEC", uuid.lowercased(), "12.50",
                    #"{"a": [1, true]}"#, "plain", "5f2b8c1a9d3e4f5a6b7c8d9e",
                ])
            try await harness.expectRows("SELECT value, position FROM S.\"Note.tags\"", [["red", "m"]])
            try await harness.expectRows("SELECT value FROM S.\"Note.labels\"", [["work"]])
            try await harness.expectRows("SELECT key, value::text FROM S.\"Note.scores\"", [["math", "7"]])

            let download = try await harness.store.download(after: 0, user: "alice", limit: 100)
            XCTAssertEqual(download.changes.map(\.change), changes)
            XCTAssertEqual(download.changes.map(\.serverSeq), Array(1...11))
            XCTAssertEqual(download.last, 11)
            XCTAssertFalse(download.more)
            let page = try await harness.store.download(after: 3, user: "alice", limit: 2)
            XCTAssertEqual(page.changes.map(\.serverSeq), [4, 5])
            XCTAssertEqual(page.last, 5)
            XCTAssertTrue(page.more)
        }
    }

    func testRetriedBatchIsAppliedOnce() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let batch = [
                StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1")),
                SyncChange(
                    seq: 2, hlc: Fixtures.hlc(1001, "c1"), model: "Note", object: .string("n1"),
                    op: .listInsert, property: "tags", value: .string("x"), element: "e1", position: "a"),
            ]
            let first = try await harness.upload(batch, client: "c1", user: "alice")
            XCTAssertEqual(first.accepted, 2)
            // The client crashed before reading the answer: it sends the batch again, plus a new change.
            let retried = try await harness.upload(
                batch + [
                    SyncChange(
                        seq: 3, hlc: Fixtures.hlc(1002, "c1"), model: "Note", object: .string("n1"),
                        op: .set, property: "title", value: .string("after"))
                ],
                client: "c1", user: "alice")
            XCTAssertEqual(retried.accepted, 1)
            XCTAssertEqual(retried.duplicates, 2)
            XCTAssertEqual(retried.acknowledged, 3)
            try await harness.expectRows("SELECT count(*)::text FROM S.strata_sync_changes", [["3"]])
            try await harness.expectRows("SELECT count(*)::text FROM S.\"Note.tags\"", [["1"]])
            try await harness.expectRows("SELECT title FROM S.\"Note\"", [["after"]])
        }
    }

    func testMalformedChangesAreRefusedNamingTheChange() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            let cases: [(SyncChange, String)] = [
                (
                    SyncChange(seq: 1, hlc: Fixtures.hlc(1, "c1"), model: "Nope", object: .string("x"), op: .delete),
                    "no model Nope"
                ),
                (
                    SyncChange(seq: 1, hlc: "yesterday", model: "Note", object: .string("x"), op: .delete),
                    "is not WWWW"
                ),
                (
                    SyncChange(seq: 1, hlc: Fixtures.hlc(1, "c2"), model: "Note", object: .string("x"), op: .delete),
                    "not the uploading client c1"
                ),
                (
                    SyncChange(
                        seq: 1, hlc: Fixtures.hlc(1, "c1"), model: "Note", object: .string("x"), op: .set,
                        property: "count", value: .string("3")), "Note.count is int; a string was given"
                ),
                (
                    SyncChange(
                        seq: 1, hlc: Fixtures.hlc(1, "c1"), model: "Note", object: .string("x"), op: .set,
                        property: "small", value: .integer(70000)), "out of its range"
                ),
                (
                    SyncChange(
                        seq: 1, hlc: Fixtures.hlc(1, "c1"), model: "Note", object: .string("x"), op: .set,
                        property: "title", value: .string("t")), "does not exist"
                ),
            ]
            for (change, expected) in cases {
                do {
                    try await harness.upload([change], client: "c1", user: "alice")
                    XCTFail("accepted \(change)")
                } catch let error as SyncError {
                    XCTAssertEqual(error.kind, .badRequest)
                    XCTAssertTrue(error.message.contains(expected), "\(error.message) lacks '\(expected)'")
                    XCTAssertTrue(error.message.hasPrefix("change 0 (seq 1"), error.message)
                }
            }
            try await harness.expectRows("SELECT count(*)::text FROM S.strata_sync_changes", [["0"]])
        }
    }
}

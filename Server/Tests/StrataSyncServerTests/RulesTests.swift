import XCTest

@testable import StrataSyncServer

/// The rules file decides who writes and reads which objects; a refused upload keeps nothing.
final class RulesTests: XCTestCase {
    private func expectRefusal(
        _ harness: StoreHarness, _ changes: [SyncChange], client: String, user: String,
        kind: SyncError.Kind = .forbidden,
        saying expected: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        do {
            try await harness.upload(changes, client: client, user: user)
            XCTFail("the upload was accepted", file: file, line: line)
        } catch let error as SyncError {
            XCTAssertEqual(error.kind, kind, file: file, line: line)
            XCTAssertTrue(
                error.message.contains(expected), "\(error.message) lacks '\(expected)'", file: file, line: line)
        }
    }

    func testOwnerRuleRefusesOthersObjectsAndKeepsNothingOfTheBatch() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            try await harness.upload(
                [StoreHarness.createNote("alice-note", seq: 1, hlc: Fixtures.hlc(1000, "a1"), title: "secret")],
                client: "a1", user: "alice")
            let before = try await harness.rows("SELECT count(*)::text FROM S.strata_sync_changes")

            // Bob's batch: his own note (fine), then an edit of Alice's note: refused, and his note is not kept.
            try await expectRefusal(
                harness,
                [
                    StoreHarness.createNote("bob-note", seq: 1, hlc: Fixtures.hlc(2000, "b1"), owner: "bob"),
                    SyncChange(
                        seq: 2, hlc: Fixtures.hlc(2001, "b1"), model: "Note", object: .string("alice-note"),
                        op: .set, property: "title", value: .string("hacked")),
                ], client: "b1", user: "bob",
                saying: "change 1 (seq 2, Note \"alice-note\"): the object belongs to another user")
            try await expectRefusal(
                harness,
                [
                    SyncChange(
                        seq: 1, hlc: Fixtures.hlc(2002, "b1"), model: "Note", object: .string("alice-note"),
                        op: .delete)
                ], client: "b1", user: "bob", saying: "belongs to another user")
            try await expectRefusal(
                harness, [StoreHarness.createNote("fake", seq: 1, hlc: Fixtures.hlc(2003, "b1"), owner: "alice")],
                client: "b1", user: "bob", saying: "must have ownerId = \"bob\"")
            try await harness.upload(
                [StoreHarness.createNote("bob-note", seq: 1, hlc: Fixtures.hlc(2004, "b1"), owner: "bob")],
                client: "b1", user: "bob")
            try await expectRefusal(
                harness,
                [
                    SyncChange(
                        seq: 2, hlc: Fixtures.hlc(2005, "b1"), model: "Note", object: .string("bob-note"),
                        op: .set, property: "ownerId", value: .string("alice"))
                ],
                client: "b1", user: "bob", saying: "may not give the object to someone else")

            try await harness.expectRows("SELECT title FROM S.\"Note\" WHERE id = 'alice-note'", [["secret"]])
            try await harness.expectRows(
                "SELECT count(*)::text FROM S.strata_sync_changes",
                [[String(Int(before[0][0]!)! + 1)]])

            // Downloads never carry objects outside the rules.
            let bobSees = try await harness.store.download(after: 0, user: "bob", limit: 100)
            XCTAssertEqual(bobSees.changes.map(\.change.object), [.string("bob-note")])
            let aliceSees = try await harness.store.download(after: 0, user: "alice", limit: 100)
            XCTAssertEqual(aliceSees.changes.map(\.change.object), [.string("alice-note")])
            XCTAssertEqual(bobSees.last, aliceSees.last, "hidden changes still advance the download position")
            XCTAssertEqual(bobSees.last, bobSees.changes.last?.serverSeq)
        }
    }

    func testSharedReadOnlyModelAndUnlistedModels() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let rules = """
                models:
                  Note: { owner: ownerId }
                  Tag: { shared: read, writers: [admin] }
                """
            let harness = try await StoreHarness.make(client, schema: schema, rules: rules)
            let tag = SyncChange(
                seq: 1, hlc: Fixtures.hlc(1000, "b1"), model: "Tag",
                object: .string("6F9619FF-8B86-D011-B42D-00C04FC964FF"), op: .create,
                value: .object(["name": .string("x")]))
            try await expectRefusal(harness, [tag], client: "b1", user: "bob", saying: "shared read-only")
            let board = SyncChange(
                seq: 1, hlc: Fixtures.hlc(1000, "b1"), model: "Board", object: .integer(7),
                op: .create, value: .object(["title": .string("x")]))
            try await expectRefusal(harness, [board], client: "b1", user: "bob", saying: "Board is not synced")

            var adminTag = tag
            adminTag.hlc = Fixtures.hlc(1000, "adm")
            try await harness.upload([adminTag], client: "adm", user: "admin")
            let bobSees = try await harness.store.download(after: 0, user: "bob", limit: 100)
            XCTAssertEqual(bobSees.changes.map(\.change.model), ["Tag"], "everyone reads a shared model")
        }
    }

    func testClientIDBelongsToOneUser() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let harness = try await StoreHarness.make(client, schema: schema)
            try await harness.upload(
                [StoreHarness.createNote("n1", seq: 1, hlc: Fixtures.hlc(1000, "c1"))], client: "c1", user: "alice")
            try await expectRefusal(
                harness, [StoreHarness.createNote("n2", seq: 2, hlc: Fixtures.hlc(1001, "c1"), owner: "bob")],
                client: "c1", user: "bob", kind: .conflict, saying: "belongs to another user")
        }
    }

    func testRulesFileIsCheckedAgainstTheSchema() throws {
        let schema = try Fixtures.schema([Fixtures.notesV1])
        XCTAssertNoThrow(try AccessRules(yaml: Fixtures.rules).validate(against: schema))
        let json = try AccessRules(yaml: #"{"models": {"Board": {"shared": "readWrite"}}}"#)
        XCTAssertEqual(json.models["Board"], .shared(writers: nil))
        let problems = [
            ("models:\n  Ghost: { owner: x }", "Ghost, which the schema files do not define"),
            ("models:\n  Note: { owner: count }", "owner field 'count' must be a string property"),
            ("models:\n  Note: { shared: sometimes }", "'shared' is 'read' or 'readWrite'"),
            ("models:\n  Note: { owner: ownerId, writers: [a] }", "excludes shared and writers"),
            ("rules: []", "top-level 'models:'"),
        ]
        for (text, expected) in problems {
            do {
                try AccessRules(yaml: text).validate(against: schema)
                XCTFail("accepted \(text)")
            } catch let error as RulesError {
                XCTAssertTrue(error.description.contains(expected), "\(error.description) lacks '\(expected)'")
            }
        }
    }
}

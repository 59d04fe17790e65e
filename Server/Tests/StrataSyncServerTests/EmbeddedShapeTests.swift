import XCTest

@testable import StrataSyncServer

/// Embedded objects on the server (docs/SYNC.md, "Embedded objects"): the owner's property is one `jsonb` column,
/// the embedded model has no table, and an uploaded nested value is checked against the embedded models' shape
/// before anything is written.
final class EmbeddedShapeTests: XCTestCase {
    static let places = """
        schema: Notes
        version: 1
        models:
          Place:
            primaryKey: id
            properties:
              id: string
              home: Address?
              stops: [Address]
              spots: map<Address?>
          Address:
            embedded: true
            properties:
              street: string
              number: int
              lines: [string]
              geo: Geo?
          Geo:
            embedded: true
            properties:
              lat: double
        """

    private func set(_ property: String, _ value: SyncValue) -> SyncChange {
        SyncChange(
            seq: 1, hlc: Fixtures.hlc(1000, "c1"), model: "Place", object: .string("p1"), op: .set, property: property,
            value: value)
    }

    private func address(_ street: SyncValue = .string("Main"), geo: SyncValue = .null) -> SyncValue {
        .object(["street": street, "number": .integer(1), "lines": .array([.string("a")]), "geo": geo])
    }

    func testAPropertyHoldingEmbeddedObjectsIsOneJSONBColumnAndTheEmbeddedModelsHaveNoTable() throws {
        let schema = try Fixtures.schema([Self.places])
        let table = try XCTUnwrap(schema.table("Place"))
        XCTAssertEqual(table.columns.map(\.name), ["home", "stops", "spots"])
        XCTAssertEqual(table.columns.map(\.type.sqlType), ["jsonb", "jsonb", "jsonb"])
        XCTAssertEqual(table.columns.map(\.type.isNullable), [true, false, false])
        XCTAssertTrue(table.collections.isEmpty, "no link table for a list or map of embedded objects")
        XCTAssertNil(schema.table("Address"))
        XCTAssertNil(schema.table("Geo"))
        XCTAssertTrue(table.createStatement(schema: "s").contains("\"stops\" jsonb"))
    }

    func testAnUploadStoresTheNestedValueAndAnOldKeyColumnBecomesJSONB() async throws {
        try await TestPostgres.withDatabase { client, schema in
            let rules = "models:\n  Place: { shared: readWrite }\n"
            let store = try await StoreHarness.make(client, schema: schema, texts: [Self.places], rules: rules)
            let create = SyncChange(
                seq: 1, hlc: Fixtures.hlc(1000, "c1"), model: "Place", object: .string("p1"), op: .create,
                value: .object([:]))
            var home = set("home", address(geo: .object(["lat": .number(1.5)])))
            home.seq = 2
            home.hlc = Fixtures.hlc(1001, "c1")
            _ = try await store.upload([create, home], client: "c1", user: "alice")
            let rows = try await store.rows(
                "SELECT home->>'street', (home->'geo'->>'lat'), jsonb_typeof(home) FROM S.\"Place\"")
            XCTAssertEqual(rows, [["Main", "1.5", "object"]])

            // Before embedded objects synced, the link was a key column (never written): migrating makes it jsonb.
            _ = try await store.rows("ALTER TABLE S.\"Place\" ALTER COLUMN home TYPE uuid USING NULL")
            try await store.store.migrate()
            let type = try await store.rows(
                "SELECT data_type::text FROM information_schema.columns WHERE table_schema = '\(schema)' "
                    + "AND table_name = 'Place' AND column_name = 'home'")
            XCTAssertEqual(type, [["jsonb"]])
        }
    }

    func testNestedValuesAreCheckedAgainstTheEmbeddedModels() throws {
        let validator = ChangeValidator(schema: try Fixtures.schema([Self.places]), clientID: "c1")
        let geo = SyncValue.object(["lat": .number(1.5)])
        let home = try validator.validate(set("home", address(geo: geo)), index: 0)
        XCTAssertEqual(home.values.first?.parameter, address(geo: geo).canonicalText)
        XCTAssertNil(try validator.validate(set("home", .null), index: 0).values.first?.parameter)
        XCTAssertNotNil(try validator.validate(set("stops", .array([address(), address()])), index: 0).values.first)
        XCTAssertNotNil(
            try validator.validate(set("spots", .object(["a": address(), "b": .null])), index: 0).values.first)

        func refused(_ change: SyncChange, _ fragment: String, line: UInt = #line) {
            XCTAssertThrowsError(try validator.validate(change, index: 0), line: line) { error in
                let message = (error as? SyncError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(fragment), "\(message) names \(fragment)", line: line)
            }
        }
        refused(set("home", .string("Main")), "Place.home is an embedded Address")
        refused(set("home", address(.integer(3))), "Place.home.street is string")
        refused(set("home", .object(["floor": .integer(2)])), "has no property floor")
        refused(set("home", address(geo: .object(["lat": .string("north")]))), "Place.home.geo.lat is double")
        refused(set("stops", .null), "not optional")
        refused(set("stops", .object([:])), "a list of embedded Address")
        refused(set("stops", .array([address(), .integer(1)])), "Place.stops[1] is an embedded Address")
        refused(set("spots", .array([])), "a map of embedded Address")
        refused(
            SyncChange(seq: 1, hlc: Fixtures.hlc(1000, "c1"), model: "Address", object: .string("x"), op: .delete),
            "no model Address")
    }
}

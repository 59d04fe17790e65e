import StrataSchema

/// Schema histories built by hand, independent of the YAML front end, that together use every construct the
/// generator handles. `Generated/FixtureModels.swift` is generated from them (see `GoldenFileTests`).
enum FixtureSchemas {
    /// Both fixture histories.
    static var all: [SchemaHistory] { [bookshop, notebook] }

    /// `Bookshop`, public, three versions, with custom steps into an intermediate and into the newest version.
    static var bookshop: SchemaHistory {
        SchemaHistory(name: "Bookshop", versions: [bookshopV1, bookshopV2, bookshopV3], plans: [
            MigrationPlan(fromVersion: 1, toVersion: 2, steps: [
                .renameModel(from: "Customer", to: "Client"),
                .renameProperty(model: "Client", from: "name", to: "fullName"),
                .convertProperty(model: "Client", property: "points", from: .integer(.int16), to: .integer(.int32)),
                .removeModel("Shelf"),
                .addModel("Order"),
                .custom(model: "Client"),
            ]),
            MigrationPlan(fromVersion: 2, toVersion: 3, steps: [
                .convertProperty(model: "Client", property: "points", from: .integer(.int32), to: .integer(.int64)),
                .addProperty(model: "Client", property: "nickname", type: .optional(.string), defaultValue: nil),
                .replaceNils(model: "Order", property: "total", from: .optional(.double), to: .double,
                             defaultValue: .integer(0)),
                .rebuildIndexes(model: "Client"),
                .changePrimaryKey(model: "Order", from: nil, to: "id"),
                .custom(model: "Client"),
            ]),
        ])
    }

    static func at(_ file: String, _ line: Int, _ column: Int = 5) -> SourceLocation {
        SourceLocation(path: "/somewhere/Schemas/Fixtures/\(file)", line: line, column: column)
    }

    static var bookshopV1: SchemaVersion {
        let file = "Bookshop.v1.strata.yaml"
        return SchemaVersion(schemaName: "Bookshop", version: 1, access: .public, models: [
            ModelDefinition(name: "Customer", primaryKey: "id", properties: [
                PropertyDefinition(name: "id", type: .integer(.int), defaultValue: .auto, location: at(file, 6)),
                PropertyDefinition(name: "name", type: .string, location: at(file, 7)),
                PropertyDefinition(name: "points", type: .integer(.int16), location: at(file, 8)),
                PropertyDefinition(name: "tier", type: .enumeration(["basic", "gold"]), location: at(file, 9)),
                PropertyDefinition(name: "shelf", type: .optional(.link("Shelf")), location: at(file, 10)),
            ], location: at(file, 4, 3)),
            ModelDefinition(name: "Shelf", properties: [
                PropertyDefinition(name: "label", type: .string, location: at(file, 13)),
                PropertyDefinition(name: "neighbours", type: .list(.link("Shelf")), location: at(file, 14)),
            ], location: at(file, 11, 3)),
        ], location: at(file, 1, 1))
    }

    static var bookshopV2: SchemaVersion {
        let file = "Bookshop.v2.strata.yaml"
        return SchemaVersion(schemaName: "Bookshop", version: 2, access: .public, models: [
            ModelDefinition(name: "Client", primaryKey: "id", properties: [
                PropertyDefinition(name: "id", type: .integer(.int), defaultValue: .auto, location: at(file, 6)),
                PropertyDefinition(name: "fullName", type: .string, renamedFrom: "name", location: at(file, 7)),
                PropertyDefinition(name: "points", type: .integer(.int32), location: at(file, 8)),
                PropertyDefinition(name: "tier", type: .enumeration(["basic", "gold"]), location: at(file, 9)),
                PropertyDefinition(name: "orders", type: .list(.link("Order")), location: at(file, 10)),
            ], renamedFrom: "Customer", needsCustomMigration: true, location: at(file, 4, 3)),
            ModelDefinition(name: "Order", properties: [
                PropertyDefinition(name: "total", type: .optional(.double), location: at(file, 14)),
            ], location: at(file, 12, 3)),
        ], removedModels: ["Shelf"], location: at(file, 1, 1))
    }

    static var bookshopV3: SchemaVersion {
        let file = "Bookshop.v3.strata.yaml"
        return SchemaVersion(schemaName: "Bookshop", version: 3, access: .public, models: [
            ModelDefinition(
                name: "Client", doc: "Someone who buys books.\nKept after their last order.", primaryKey: "id",
                properties: [
                    PropertyDefinition(name: "id", type: .integer(.int), defaultValue: .auto, location: at(file, 6)),
                    PropertyDefinition(name: "fullName", type: .string, isIndexed: true,
                                       doc: "The name printed on invoices.", location: at(file, 7)),
                    PropertyDefinition(name: "nickname", type: .optional(.string), location: at(file, 8)),
                    PropertyDefinition(name: "points", type: .integer(.int64), location: at(file, 9)),
                    PropertyDefinition(name: "age", type: .integer(.int8), defaultValue: .integer(18),
                                       location: at(file, 10)),
                    PropertyDefinition(name: "shoeSize", type: .optional(.integer(.int16)), location: at(file, 11)),
                    PropertyDefinition(name: "visits", type: .integer(.int32), location: at(file, 12)),
                    PropertyDefinition(name: "balance", type: .double, defaultValue: .integer(0), location: at(file, 13)),
                    PropertyDefinition(name: "ratio", type: .float, defaultValue: .double(0.5), location: at(file, 14)),
                    PropertyDefinition(name: "active", type: .bool, defaultValue: .bool(true), location: at(file, 15)),
                    PropertyDefinition(name: "joined", type: .date, defaultValue: .auto, location: at(file, 16)),
                    PropertyDefinition(name: "birthday", type: .optional(.date), location: at(file, 17)),
                    PropertyDefinition(name: "avatar", type: .optional(.data), location: at(file, 18)),
                    PropertyDefinition(name: "token", type: .uuid, defaultValue: .auto, location: at(file, 19)),
                    PropertyDefinition(name: "externalID", type: .uuid, location: at(file, 20)),
                    PropertyDefinition(name: "tier", type: .enumeration(["basic", "gold", "default"]),
                                       defaultValue: .string("gold"), location: at(file, 21)),
                    PropertyDefinition(name: "tags", type: .list(.string), location: at(file, 22)),
                    PropertyDefinition(name: "scores", type: .list(.optional(.integer(.int))), location: at(file, 23)),
                    PropertyDefinition(name: "orders", type: .list(.link("Order")), location: at(file, 24)),
                    PropertyDefinition(name: "favourite", type: .optional(.link("Order")), location: at(file, 25)),
                    PropertyDefinition(name: "class", type: .string, defaultValue: .string("a \"quoted\"\\ value"),
                                       location: at(file, 26)),
                    PropertyDefinition(name: "cache", type: .optional(.data), isTransient: true, location: at(file, 27)),
                ],
                needsCustomMigration: true, location: at(file, 4, 3)
            ),
            ModelDefinition(name: "Order", primaryKey: "id", properties: [
                PropertyDefinition(name: "id", type: .uuid, defaultValue: .auto, location: at(file, 31)),
                PropertyDefinition(name: "total", type: .double, defaultValue: .integer(0), location: at(file, 32)),
                PropertyDefinition(name: "placed", type: .date, defaultValue: .string("2024-01-01T00:00:00Z"),
                                   location: at(file, 33)),
                PropertyDefinition(name: "reference", type: .uuid,
                                   defaultValue: .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), location: at(file, 34)),
                PropertyDefinition(name: "buyers", type: .linkingObjects(model: "Client", property: "orders"),
                                   location: at(file, 35)),
            ], compoundIndexes: [["total", "placed"]], location: at(file, 29, 3)),
        ], location: at(file, 1, 1))
    }

    /// `Notebook`, internal, one version, no custom step: it opens with `Configuration(schema:)`.
    static var notebook: SchemaHistory {
        let file = "Notebook.v1.strata.yaml"
        return SchemaHistory(name: "Notebook", versions: [
            SchemaVersion(schemaName: "Notebook", version: 1, models: [
                ModelDefinition(name: "Note", properties: [
                    PropertyDefinition(name: "text", type: .string, location: at(file, 5)),
                    PropertyDefinition(name: "pinned", type: .optional(.bool), location: at(file, 6)),
                    PropertyDefinition(name: "mood", type: .optional(.enumeration(["calm", "Note"])),
                                       location: at(file, 7)),
                ], location: at(file, 3, 3)),
                ModelDefinition(name: "Blank", properties: [], location: at(file, 8, 3)),
            ], location: at(file, 1, 1)),
        ], plans: [])
    }
}

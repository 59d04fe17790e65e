import StrataSchema
import StrataSchemaCompiler
import XCTest

/// One test per row of docs/SCHEMA.md's migration table.
final class MigrationPlanTests: SchemaTestCase {
    /// The plan from `first` to `second` (both schema `Shop`), asserting the history compiles.
    private func plan(_ first: String, _ second: String, file: StaticString = #filePath, line: UInt = #line)
        -> [MigrationStep] {
        let history = compileWithoutErrors(
            [("Shop.v1.strata.yaml", first), ("Shop.v2.strata.yaml", second)], file: file, line: line)
        XCTAssertEqual(history?.plans.count, 1, file: file, line: line)
        XCTAssertEqual(history?.plans.first?.fromVersion, 1, file: file, line: line)
        XCTAssertEqual(history?.plans.first?.toVersion, 2, file: file, line: line)
        return history?.plans.first?.steps ?? []
    }

    /// The plan for changing one property of `Item` from `old` to `new` (lines after `id: int`).
    private func plan(property old: String, _ new: String, extra: [String] = []) -> [MigrationStep] {
        plan(Examples.shop(1, Examples.item(["id: int", old])),
            Examples.shop(2, Examples.item(["id: int", new], extra: extra)))
    }

    private let box = "\n  Box:\n    properties:\n      size: int"

    func testUnchangedVersionHasNoSteps() {
        XCTAssertEqual(plan(property: "name: string", "name: { type: string, doc: Now documented. }"), [])
    }

    func testAddedModelIsCreated() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int"]) + box)), [.addModel("Box")])
    }

    func testAddedPropertyIsCreatedWithItsDefault() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int", "stock: { type: int32, default: 5 }", "note: string?"]))), [
                .addProperty(model: "Item", property: "stock", type: .integer(.int32), defaultValue: .integer(5)),
                .addProperty(model: "Item", property: "note", type: .optional(.string), defaultValue: nil),
            ])
    }

    func testModelListedInRemovedModelsIsDropped() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"]) + box),
            Examples.shop(2, Examples.item(["id: int"]), trailer: "removedModels: [Box]")), [.removeModel("Box")])
    }

    func testPropertyListedInRemovedIsDropped() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int", "name: string"])),
            Examples.shop(2, Examples.item(["id: int"], extra: ["removed: [name]"]))),
            [.removeProperty(model: "Item", property: "name")])
    }

    func testRenamedModelKeepsItsObjects() {
        let crate = "\n  Crate:\n    renamedFrom: Box\n    properties:\n      size: int"
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"]) + box),
            Examples.shop(2, Examples.item(["id: int"]) + crate)), [.renameModel(from: "Box", to: "Crate")])
    }

    func testRenamedPropertyKeepsItsValues() {
        XCTAssertEqual(plan(property: "name: string", "title: { type: string, renamedFrom: name }"),
            [.renameProperty(model: "Item", from: "name", to: "title")])
    }

    func testIntegerWideningStepsAreLossless() {
        let widenings: [(IntegerWidth, IntegerWidth)] = [
            (.int8, .int16), (.int16, .int32), (.int32, .int64), (.int8, .int64), (.int, .int64), (.int64, .int),
            (.int32, .int),
        ]
        for (from, to) in widenings {
            XCTAssertEqual(plan(property: "n: \(from.rawValue)", "n: \(to.rawValue)"),
                [.convertProperty(model: "Item", property: "n", from: .integer(from), to: .integer(to))],
                "\(from) → \(to)")
        }
    }

    func testFloatToDoubleIsLossless() {
        XCTAssertEqual(plan(property: "x: float", "x: double"),
            [.convertProperty(model: "Item", property: "x", from: .float, to: .double)])
    }

    func testEveryIntegerWidthToDoubleIsLossless() {
        for width in IntegerWidth.allCases {
            XCTAssertEqual(plan(property: "x: \(width.rawValue)", "x: double"),
                [.convertProperty(model: "Item", property: "x", from: .integer(width), to: .double)], width.rawValue)
        }
    }

    func testMakingAPropertyOptionalIsLossless() {
        XCTAssertEqual(plan(property: "x: string", "x: string?"),
            [.convertProperty(model: "Item", property: "x", from: .string, to: .optional(.string))])
        XCTAssertEqual(plan(property: "x: int16", "x: int32?"),
            [.convertProperty(model: "Item", property: "x", from: .integer(.int16), to: .optional(.integer(.int32)))])
    }

    func testOptionalToNonOptionalWithADefaultReplacesNils() {
        XCTAssertEqual(plan(property: "x: string?", "x: { type: string, default: none }"), [
            .replaceNils(model: "Item", property: "x", from: .optional(.string), to: .string,
                defaultValue: .string("none")),
        ])
    }

    func testIndexedChangeRebuildsIndexes() {
        XCTAssertEqual(plan(property: "name: string", "name: { type: string, indexed: true }"),
            [.rebuildIndexes(model: "Item")])
        XCTAssertEqual(plan(property: "name: { type: string, indexed: true }", "name: string"),
            [.rebuildIndexes(model: "Item")])
    }

    func testFullTextChangeRebuildsIndexes() {
        XCTAssertEqual(plan(property: "notes: string", "notes: { type: string, fullText: true }"),
            [.rebuildIndexes(model: "Item")])
        XCTAssertEqual(plan(property: "notes: { type: string?, fullText: true }", "notes: string?"),
            [.rebuildIndexes(model: "Item")])
        XCTAssertEqual(
            plan(property: "notes: { type: string, fullText: true }", "notes: { type: string, fullText: true }"), [])
    }

    func testAddedUniquenessRulesAreCheckedAndRemovedOnesNeedOnlyARebuild() {
        XCTAssertEqual(plan(property: "name: string", "name: { type: string, unique: true }"), [
            .rebuildIndexes(model: "Item"), .checkUniqueness(model: "Item", properties: ["name"]),
        ])
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int", "a: string"])),
            Examples.shop(2, Examples.item(["id: int", "a: string"], extra: ["unique: [[id, a]]"]))), [
            .rebuildIndexes(model: "Item"), .checkUniqueness(model: "Item", properties: ["id", "a"]),
        ])
        XCTAssertEqual(plan(property: "name: { type: string, unique: true }", "name: string"),
            [.rebuildIndexes(model: "Item")])
        XCTAssertEqual(MigrationStep.checkUniqueness(model: "Item", properties: ["id", "a"]).summary,
            "make Item.id + Item.a unique (existing objects are checked: equal values fail the migration, naming "
                + "the duplicates)")
    }

    func testCompoundIndexChangeRebuildsIndexes() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int", "a: string"])),
            Examples.shop(2, Examples.item(["id: int", "a: string"], extra: ["indexes: [[id, a]]"]))),
            [.rebuildIndexes(model: "Item")])
    }

    func testCompoundIndexFollowingARenameIsUnchanged() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int", "a: string"], extra: ["indexes: [[id, a]]"])),
            Examples.shop(2, Examples.item(["id: int", "b: { type: string, renamedFrom: a }"],
                extra: ["indexes: [[id, b]]"]))), [.renameProperty(model: "Item", from: "a", to: "b")])
    }

    func testConvertingAnIndexedPropertyRebuildsIndexes() {
        XCTAssertEqual(plan(property: "n: { type: int16, indexed: true }", "n: { type: int32, indexed: true }"), [
            .convertProperty(model: "Item", property: "n", from: .integer(.int16), to: .integer(.int32)),
            .rebuildIndexes(model: "Item"),
        ])
    }

    func testNewPrimaryKeyIsChecked() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int"], extra: ["primaryKey: id"]))),
            [.changePrimaryKey(model: "Item", from: nil, to: "id")])
    }

    func testChangedPrimaryKeyIsChecked() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int", "code: string"], extra: ["primaryKey: id"])),
            Examples.shop(2, Examples.item(["id: int", "code: string"], extra: ["primaryKey: code"]))),
            [.changePrimaryKey(model: "Item", from: "id", to: "code")])
    }

    func testRenamedPrimaryKeyIsNotAKeyChange() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"], extra: ["primaryKey: id"])),
            Examples.shop(2, Examples.item(["key: { type: int, renamedFrom: id }"], extra: ["primaryKey: key"]))),
            [.renameProperty(model: "Item", from: "id", to: "key")])
    }

    func testTypeChangeWithCustomMigrationRecreatesThePropertyAndRunsAppCode() {
        XCTAssertEqual(plan(property: "code: int", "code: string", extra: ["migrate: custom"]), [
            .removeProperty(model: "Item", property: "code"),
            .addProperty(model: "Item", property: "code", type: .string, defaultValue: nil),
            .custom(model: "Item"),
        ])
    }

    func testCustomMigrationWithoutStructuralChangeRunsAppCode() {
        XCTAssertEqual(plan(property: "code: int", "code: int", extra: ["migrate: custom"]), [.custom(model: "Item")])
    }

    func testRenamedAndConvertedPropertyGivesBothSteps() {
        XCTAssertEqual(plan(property: "count: int32", "total: { type: int64, renamedFrom: count }"), [
            .renameProperty(model: "Item", from: "count", to: "total"),
            .convertProperty(model: "Item", property: "total", from: .integer(.int32), to: .integer(.int64)),
        ])
    }

    func testEnumGainingCasesIsLosslessAndLosingOneNeedsCustomCode() {
        XCTAssertEqual(plan(property: "s: { enum: [a, b] }", "s: { enum: [a, b, c] }"), [
            .convertProperty(model: "Item", property: "s", from: .enumeration(["a", "b"]),
                to: .enumeration(["a", "b", "c"])),
        ])
        assertSingleError([
            ("Shop.v1.strata.yaml", Examples.shop(1, Examples.item(["id: int", "s: { enum: [a, b] }"]))),
            ("Shop.v2.strata.yaml", Examples.shop(2, Examples.item(["id: int", "s: { enum: [a] }"]))),
        ], line: 7, column: 18, contains: ["changes type from '{ enum: [a, b] }' to '{ enum: [a] }'",
            "add 'migrate: custom' to model 'Item'"])
    }

    func testLinkToARenamedModelIsUnchanged() {
        let v1 = Examples.shop(1, Examples.item(["id: int", "box: Box?"]) + box)
        let crate = "\n  Crate:\n    renamedFrom: Box\n    properties:\n      size: int"
        let v2 = Examples.shop(2, Examples.item(["id: int", "box: Crate?"]) + crate)
        XCTAssertEqual(plan(v1, v2), [.renameModel(from: "Box", to: "Crate")])
    }

    func testTransientPropertiesAreNotPartOfThePlan() {
        XCTAssertEqual(plan(Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int", "cache: { type: data?, transient: true }"]))), [])
    }

    func testStepsComeInTheDocumentedOrder() {
        let v1 = Examples.shop(1, Examples.item(
            ["id: int", "a: string", "old: string", "n: int8", "o: string?"], extra: ["indexes: [[a]]"]) + box)
        let v2 = Examples.shop(2, Examples.item(
            ["id: int", "b: { type: string, renamedFrom: a }", "n: int16", "o: { type: string, default: x }",
                "added: bool"],
            extra: ["removed: [old]", "primaryKey: id", "migrate: custom"])
            + "\n  Tag:\n    properties:\n      label: string", trailer: "removedModels: [Box]")
        XCTAssertEqual(plan(v1, v2), [
            .renameProperty(model: "Item", from: "a", to: "b"),
            .removeModel("Box"),
            .removeProperty(model: "Item", property: "old"),
            .convertProperty(model: "Item", property: "n", from: .integer(.int8), to: .integer(.int16)),
            .replaceNils(model: "Item", property: "o", from: .optional(.string), to: .string,
                defaultValue: .string("x")),
            .addModel("Tag"),
            .addProperty(model: "Item", property: "added", type: .bool, defaultValue: nil),
            .rebuildIndexes(model: "Item"),
            .changePrimaryKey(model: "Item", from: nil, to: "id"),
            .custom(model: "Item"),
        ])
    }

    func testLibraryVersionTwoToThreeGivesTheExpectedPlan() throws {
        let history = try XCTUnwrap(compileWithoutErrors([
            ("Library.v2.strata.yaml", Examples.libraryV2), ("Library.v3.strata.yaml", Examples.libraryV3),
        ]))
        let plan = try XCTUnwrap(history.plans.first)
        XCTAssertEqual(plan.steps, [
            .renameProperty(model: "Person", from: "yearsSinceBirth", to: "age"),
            .removeModel("Shelf"),
            .removeProperty(model: "Person", property: "firstName"),
            .removeProperty(model: "Person", property: "lastName"),
            .custom(model: "Person"),
        ])
        XCTAssertEqual(plan.customModels, ["Person"])
        XCTAssertEqual(plan.summary, """
            v2 → v3:
              - rename property Person.yearsSinceBirth to age
              - remove model Shelf and its objects
              - remove property Person.firstName
              - remove property Person.lastName
              - run the app's custom migration for Person
            """)
    }

    func testThreeVersionsGiveTwoPlans() throws {
        let history = try XCTUnwrap(compileWithoutErrors([
            ("Shop.v3.strata.yaml", Examples.shop(3, Examples.item(["id: int", "n: int64"]))),
            ("Shop.v1.strata.yaml", Examples.shop(1, Examples.item(["id: int"]))),
            ("Shop.v2.strata.yaml", Examples.shop(2, Examples.item(["id: int", "n: int32"]))),
        ]))
        XCTAssertEqual(history.versions.map(\.version), [1, 2, 3])
        XCTAssertEqual(history.plans.map(\.fromVersion), [1, 2])
        XCTAssertEqual(history.plans[1].steps,
            [.convertProperty(model: "Item", property: "n", from: .integer(.int32), to: .integer(.int64))])
        XCTAssertEqual(history.current.version, 3)
    }
}

import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Problems only the whole history shows: versions, and what disappears or changes between them.
final class HistoryDiagnosticsTests: SchemaTestCase {
    private func versions(_ first: String, _ second: String) -> [(String, String)] {
        [("Shop.v1.strata.yaml", first), ("Shop.v2.strata.yaml", second)]
    }

    func testDuplicateVersionIsReportedOnTheSecondFile() {
        let text = Examples.shop(1, Examples.item(["id: int"]))
        assertSingleError([("Shop.copy.strata.yaml", text), ("Shop.strata.yaml", text)], path: "Shop.strata.yaml",
            line: 2, column: 10,
            contains: ["version 1 of schema 'Shop' is declared twice, here and at Shop.copy.strata.yaml:2:10",
                "give the newer file the next number (2)"])
    }

    func testFileNamesAndVersionsThatDisagreeAreReported() {
        let files = [
            ("Shop.v1.strata.yaml", Examples.shop(2, Examples.item(["id: int"]))),
            ("Shop.v2.strata.yaml", Examples.shop(1, Examples.item(["id: int"]))),
        ]
        let errors = compile(files).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.description), [
            "Shop.v1.strata.yaml:2:10: error: the file name 'Shop.v1.strata.yaml' says version 1, but 'version:' is 2: "
                + "versions must increase with each new file; make them agree",
            "Shop.v2.strata.yaml:2:10: error: the file name 'Shop.v2.strata.yaml' says version 2, but 'version:' is 1: "
                + "versions must increase with each new file; make them agree",
        ])
    }

    func testPropertyGoneWithoutRemovedIsReported() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "name: string"])),
            Examples.shop(2, Examples.item(["id: int"]))), line: 5, column: 5,
            contains: ["property 'Item.name' of version 1 is missing from model 'Item' in version 2",
                "list it in 'removed: [name]'"])
    }

    func testPropertyGoneNextToASimilarNewOneSuggestsRenamedFrom() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "name: string"])),
            Examples.shop(2, Examples.item(["id: int", "nme: string"]))), line: 5, column: 5,
            contains: ["add 'renamedFrom: name' to property 'nme'"])
    }

    func testModelGoneWithoutRemovedModelsIsReported() {
        let box = "\n  Box:\n    properties:\n      size: int"
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int"]) + box),
            Examples.shop(2, Examples.item(["id: int"]))), line: 3, column: 1,
            contains: ["model 'Box' of version 1 is missing from version 2", "'removedModels: [Box]'"])
    }

    func testPropertyRenamedFromNothingSuggestsTheOldName() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "name: string"])),
            Examples.shop(2, Examples.item(["id: int", "title: { type: string, renamedFrom: nam }"]))),
            line: 7, column: 43,
            contains: ["property 'Item.title' is renamed from 'nam'", "has no stored property 'nam'",
                "did you mean 'name'?"])
    }

    func testModelRenamedFromNothingIsReported() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int"])
                + "\n  Box:\n    renamedFrom: Crate\n    properties:\n      a: int")),
            line: 8, column: 18, contains: ["model 'Box' is renamed from 'Crate', but version 1 has no model 'Crate'"])
    }

    func testPropertyOfANewModelCannotBeRenamedFromAnything() {
        let box = "\n  Box:\n    properties:\n      size: { type: int, renamedFrom: volume }"
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int"]) + box)), line: 9, column: 39,
            contains: ["model 'Box' is new in version 2, so there are no old values"])
    }

    func testRemovedNamingAPropertyThePreviousVersionLacksIsReported() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int"], extra: ["removed: [ghost]"]))), line: 5, column: 15,
            contains: ["'removed' of model 'Item' lists 'ghost'", "has no stored property 'ghost'"])
    }

    func testRemovedModelsNamingAModelThePreviousVersionLacksIsReported() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int"])),
            Examples.shop(2, Examples.item(["id: int"]), trailer: "removedModels: [Ghost]")), line: 7, column: 17,
            contains: ["'removedModels' lists 'Ghost', but version 1 has no model 'Ghost'"])
    }

    func testTypeChangeWithoutCustomMigrationNamesThePropertyAndTheChange() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "code: int"])),
            Examples.shop(2, Examples.item(["id: int", "code: string"]))), line: 7, column: 13,
            contains: ["property 'Item.code' changes type from 'int' to 'string'",
                "add 'migrate: custom' to model 'Item'"])
    }

    func testNarrowingWithoutCustomMigrationIsReported() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "code: int64"])),
            Examples.shop(2, Examples.item(["id: int", "code: int16"]))), line: 7, column: 13,
            contains: ["changes type from 'int64' to 'int16'"])
    }

    func testOptionalToNonOptionalWithoutDefaultNeedsCustomMigration() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "code: int?"])),
            Examples.shop(2, Examples.item(["id: int", "code: int"]))), line: 7, column: 13,
            contains: ["property 'Item.code' changes from 'int?' to 'int'", "existing nils need a value",
                "add a 'default:'"])
    }

    func testStoredPropertyBecomingTransientWithoutRemovedIsReported() {
        assertSingleError(versions(
            Examples.shop(1, Examples.item(["id: int", "cache: data"])),
            Examples.shop(2, Examples.item(["id: int", "cache: { type: data, transient: true }"]))), line: 5,
            column: 5, contains: ["'Item.cache' of version 1 is transient in version 2", "'removed: [cache]'"])
    }

    func testTwoSchemasGeneratingTheSameModelTypeAreRefused() {
        let shop = Examples.shop(1, Examples.item(["id: int"]))
        let store = "schema: Store\nversion: 1\nmodels:\n  Item:\n    properties:\n      id: int\n"
        assertSingleError([("Shop.strata.yaml", shop), ("Store.strata.yaml", store)], path: "Store.strata.yaml",
            line: 4, column: 3,
            contains: ["model 'Item' of schema 'Store' generates the Swift type 'Item'",
                "as does model 'Item' of schema 'Shop' (Shop.strata.yaml:4:3)", "must not generate the same type name"])
    }

    func testSchemaTypeClashingWithAnotherSchemasModelIsRefused() {
        let shop = Examples.shop(1, Examples.item(["id: int"]))
        let item = "schema: Item\nversion: 1\nmodels:\n  Thing:\n    properties:\n      id: int\n"
        assertSingleError([("Item.strata.yaml", item), ("Shop.strata.yaml", shop)], path: "Shop.strata.yaml",
            line: 4, column: 3, contains: ["model 'Item' of schema 'Shop'", "as does schema 'Item'"])
    }

    func testErrorsInOneVersionDoNotCascadeIntoDiffErrors() {
        let files = versions(
            Examples.shop(1, Examples.item(["id: int", "name: string"])),
            Examples.shop(2, Examples.item(["id: int", "name: strig"])))
        let errors = compile(files).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertTrue(errors.first?.message.contains("did you mean 'string'?") == true)
    }

    func testFirstVersionMayCarryRenamesAndRemovalsOfOlderUnseenFiles() {
        XCTAssertNotNil(compileWithoutErrors([("Library.v3.strata.yaml", Examples.libraryV3)]))
    }
}

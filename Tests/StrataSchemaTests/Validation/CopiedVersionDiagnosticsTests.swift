import StrataSchema
import StrataSchemaCompiler
import XCTest

/// A new version file started as a copy of the previous one keeps the keys that described the previous step
/// (`renamedFrom:`, `removed:`, `removedModels:`, `migrate: custom`): the compiler says they look copied and to
/// delete them, at each key.
final class CopiedVersionDiagnosticsTests: SchemaTestCase {
    private let version1 = """
        schema: Shop
        version: 1
        models:
          Writer:
            properties:
              name: string
          Member:
            properties:
              first: string
              last: string
              years: int
        """

    private let version2 = """
        schema: Shop
        version: 2
        models:
          Author:
            renamedFrom: Writer
            properties:
              name: string
          Member:
            properties:
              full: string
              age: { type: int, renamedFrom: years }
            removed: [first, last]
            migrate: custom
        """

    /// Version 2's text with the version number changed, as a copied file starts.
    private var copiedVersion3: String {
        version2.replacingOccurrences(of: "version: 2", with: "version: 3")
    }

    private func history(_ third: String) -> [(String, String)] {
        [("Shop.v1.strata.yaml", version1), ("Shop.v2.strata.yaml", version2), ("Shop.v3.strata.yaml", third)]
    }

    func testEveryCopiedKeyIsReportedWhereItIsWithTheAdviceToDeleteIt() {
        let diagnostics = compile(history(copiedVersion3)).diagnostics.map(\.description)
        XCTAssertEqual(diagnostics, [
            "Shop.v3.strata.yaml:5:18: error: model 'Author' is renamed from 'Writer', but version 2 already calls it "
                + "'Author' (the rename ran in the step into version 2): 'renamedFrom' looks copied from version 2's "
                + "file; delete 'renamedFrom: Writer'",
            "Shop.v3.strata.yaml:11:38: error: property 'Member.age' is renamed from 'years', but model 'Member' of "
                + "version 2 already calls it 'age' (the rename ran in the step into version 2): 'renamedFrom' looks "
                + "copied from version 2's file; delete 'renamedFrom: years'",
            "Shop.v3.strata.yaml:12:15: error: 'removed' of model 'Member' lists 'first', which version 2 already "
                + "removed: the entry looks copied from version 2's file; delete it",
            "Shop.v3.strata.yaml:12:22: error: 'removed' of model 'Member' lists 'last', which version 2 already "
                + "removed: the entry looks copied from version 2's file; delete it",
            "Shop.v3.strata.yaml:13:14: warning: model 'Member' has 'migrate: custom', but its stored properties are "
                + "those of version 2, whose file has 'migrate: custom' too: the key looks copied from version 2's "
                + "file; delete it, unless the step into version 3 must recompute values (then the app implements "
                + "one more method of 'ShopMigrations')",
        ])
    }

    func testACopiedRemovedModelsEntryIsReported() {
        let withShelf = version1 + "\n  Shelf:\n    properties:\n      label: string"
        let second = version2 + "\nremovedModels: [Shelf]"
        let third = second.replacingOccurrences(of: "version: 2", with: "version: 3")
            .replacingOccurrences(of: "    renamedFrom: Writer\n", with: "")
            .replacingOccurrences(of: ", renamedFrom: years", with: "")
            .replacingOccurrences(of: "    removed: [first, last]\n", with: "")
            .replacingOccurrences(of: "    migrate: custom\n", with: "")
        let files = [
            ("Shop.v1.strata.yaml", withShelf), ("Shop.v2.strata.yaml", second), ("Shop.v3.strata.yaml", third),
        ]
        assertSingleError(files, line: 11, column: 17, contains: [
            "'removedModels' lists 'Shelf', which version 2 already removed: the entry looks copied from version 2's "
                + "file; delete it",
        ])
    }

    func testTheCopyWithTheKeysDeletedCompilesWithoutWarnings() {
        let third = copiedVersion3
            .replacingOccurrences(of: "    renamedFrom: Writer\n", with: "")
            .replacingOccurrences(of: ", renamedFrom: years", with: "")
            .replacingOccurrences(of: "    removed: [first, last]\n", with: "")
            .replacingOccurrences(of: "    migrate: custom", with: "")
        let compilation = compile(history(third))
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        XCTAssertEqual(compilation.histories.first?.plans.last?.steps, [])
    }

    func testAKeptCustomStepOnAModelThatChangesIsNotReported() {
        let third = copiedVersion3
            .replacingOccurrences(of: "    renamedFrom: Writer\n", with: "")
            .replacingOccurrences(of: ", renamedFrom: years", with: "")
            .replacingOccurrences(of: "    removed: [first, last]\n", with: "")
            .replacingOccurrences(of: "age: { type: int }", with: "age: { type: string }")
        let compilation = compile(history(third))
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        XCTAssertEqual(compilation.histories.first?.plans.last?.customModels, ["Member"])
    }
}

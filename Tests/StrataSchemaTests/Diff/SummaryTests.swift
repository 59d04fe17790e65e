import StrataSchema
import StrataSchemaCompiler
import XCTest

final class SummaryTests: XCTestCase {
    func testEveryStepHasAPlainWordsSummary() {
        let cases: [(MigrationStep, String)] = [
            (.addModel("Tag"), "add model Tag"),
            (.removeModel("Shelf"), "remove model Shelf and its objects"),
            (.renameModel(from: "Box", to: "Crate"), "rename model Box to Crate"),
            (.addProperty(model: "Item", property: "n", type: .optional(.integer(.int32)), defaultValue: nil),
                "add property Item.n (int32?), starting as nil"),
            (.addProperty(model: "Item", property: "z", type: .integer(.int8), defaultValue: nil),
                "add property Item.z (int8), filled with its zero value"),
            (.addProperty(model: "Item", property: "l", type: .list(.link("Tag")), defaultValue: nil),
                "add property Item.l ([Tag]), starting empty"),
            (.addProperty(model: "Item", property: "s", type: .string, defaultValue: .string("x")),
                "add property Item.s (string), filled with \"x\""),
            (.removeProperty(model: "Person", property: "firstName"), "remove property Person.firstName"),
            (.renameProperty(model: "Person", from: "yearsSinceBirth", to: "age"),
                "rename property Person.yearsSinceBirth to age"),
            (.convertProperty(model: "Item", property: "n", from: .integer(.int8), to: .integer(.int16)),
                "convert property Item.n from int8 to int16"),
            (.replaceNils(model: "Item", property: "o", from: .optional(.string), to: .string,
                defaultValue: .string("x")),
                "make property Item.o non-optional (string? to string), nils become \"x\""),
            (.rebuildIndexes(model: "Book"), "rebuild the indexes of Book"),
            (.changePrimaryKey(model: "Item", from: nil, to: "id"),
                "make Item.id the primary key (checked for duplicates)"),
            (.changePrimaryKey(model: "Item", from: "id", to: "code"),
                "change the primary key of Item from id to code (checked for duplicates)"),
            (.changePrimaryKey(model: "Item", from: "id", to: nil), "drop the primary key Item.id"),
            (.custom(model: "Person"), "run the app's custom migration for Person"),
        ]
        for (step, summary) in cases {
            XCTAssertEqual(step.summary, summary)
        }
    }

    func testEmptyPlanSaysNothingChanges() {
        XCTAssertEqual(MigrationPlan(fromVersion: 1, toVersion: 2, steps: []).summary,
            "v1 → v2:\n  (no changes to stored data)")
    }
}

import StrataSchema
import StrataSchemaCompiler
import XCTest

/// `onDelete: nullify | cascade | deny` on links, lists, sets, maps and linkingObjects: what is accepted, what is
/// refused and where, and what a changed rule puts in the migration plan.
final class DeleteRuleDiagnosticsTests: SchemaTestCase {
    private func item(_ properties: String) -> String {
        Examples.minimal(properties: properties)
    }

    private let box = "\n  Box:\n    embedded: true\n    properties:\n      size: int"

    func testRulesAreReadOnEveryKindOfProperty() throws {
        let version = try XCTUnwrap(loadVersion(item("""
            id: int
                  next: { type: Item?, onDelete: cascade }
                  list: { type: "[Item]", onDelete: deny }
                  members: { type: set<Item>, onDelete: nullify }
                  slots: { type: map<Item?>, onDelete: cascade }
                  listedBy: { linkingObjects: Item.list, onDelete: deny }
                  plain: Item?
            """)))
        let model = try XCTUnwrap(version.models.first)
        XCTAssertEqual(model.property(named: "next")?.deleteRule, .cascade)
        XCTAssertEqual(model.property(named: "list")?.deleteRule, .deny)
        XCTAssertEqual(model.property(named: "members")?.deleteRule, .nullify)
        XCTAssertEqual(model.property(named: "slots")?.deleteRule, .cascade)
        XCTAssertEqual(model.property(named: "listedBy")?.deleteRule, .deny)
        XCTAssertNil(model.property(named: "plain")?.deleteRule, "no rule is nullify, the default")
    }

    func testAnUnknownRuleIsRefusedAtItsValue() {
        assertSingleError(item("next: { type: Item?, onDelete: sideways }"), line: 6, column: 38,
            contains: ["'onDelete' of property 'Item.next' is nullify, cascade or deny, not 'sideways'"])
    }

    func testARuleOnAValueIsRefused() {
        assertSingleError(item("name: { type: string, onDelete: cascade }"), line: 6, column: 29,
            contains: ["'onDelete' of property 'Item.name' is for links, lists, sets and maps of objects and for "
                + "linkingObjects, not for 'string'", "remove 'onDelete'"])
    }

    func testARuleOnAListOfValuesIsRefused() {
        assertSingleError(item("tags: { type: \"[string]\", onDelete: deny }"), line: 6, column: 33,
            contains: ["not for '[string]'"])
    }

    func testARuleOnATransientLinkIsRefused() {
        assertSingleError(item("next: { type: Item?, transient: true, onDelete: deny }"), line: 6, column: 45,
            contains: ["'Item.next' is transient, so it is not stored and deleting cannot follow it"])
    }

    func testARuleOnALinkToAnEmbeddedModelIsRefused() {
        assertSingleError(item("box: { type: Box?, onDelete: nullify }") + box, line: 6, column: 26,
            contains: ["links to embedded model 'Box', whose objects are always deleted with their owner"])
    }

    func testARuleOnAnInverseThroughAListIsAccepted() throws {
        let text = Examples.shop(1, """
              Reader:
                properties:
                  lendings: "[Lending]"
              Volume:
                properties:
                  borrowers: { linkingObjects: Reader.lendings, onDelete: deny }
              Lending:
                properties:
                  volume: Volume?
            """)
        let version = try XCTUnwrap(loadVersion(text))
        XCTAssertEqual(version.model(named: "Volume")?.property(named: "borrowers")?.deleteRule, .deny)
    }

    func testAChangedRuleIsAPlanStepThatChangesNoData() throws {
        let history = compileWithoutErrors([
            ("Shop.v1.strata.yaml", Examples.shop(1, Examples.item(["id: int", "next: Item?"]))),
            ("Shop.v2.strata.yaml", Examples.shop(2, Examples.item(["id: int", "next: { type: Item?, onDelete: deny }"]))),
        ])
        let steps = history?.plans.first?.steps ?? []
        XCTAssertEqual(steps, [.changeDeleteRule(model: "Item", property: "next", from: nil, to: .deny)])
        XCTAssertEqual(steps.first?.summary, "change the delete rule of Item.next from nullify to deny (no data "
            + "changes: the new rule applies to later deletes)")
        let versions = history?.versions ?? []
        XCTAssertEqual(versions.count, 2)
        var edited = versions.first
        edited?.models[0].properties[1].deleteRule = .deny
        XCTAssertNotEqual(edited?.fingerprint, versions.first?.fingerprint,
            "a rule changed in place is an edited version: the change goes in a new version")
        edited?.models[0].properties[1].deleteRule = .nullify
        XCTAssertEqual(edited?.fingerprint, versions.first?.fingerprint, "nullify is the default, written or not")
    }
}

import Foundation
import StrataCodegen
import StrataSchemaCompiler
import StrataTestSupport
import XCTest

/// docs/SCHEMA.md's Contacts example, read from the page: it compiles, its rules (uniqueness, delete rules)
/// are documented on the generated properties, and app code using them type-checks.
final class ContactsExampleCodegenTests: XCTestCase {
    private func generated() throws -> String {
        let compilation = SchemaCompiler().compile(
            sources: [SchemaSource(path: "Contacts.v1.strata.yaml", text: try DocumentedExample.contactsSchema())])
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        let version = try XCTUnwrap(compilation.histories.first?.versions.first)
        XCTAssertEqual(version.model(named: "Company")?.property(named: "staff")?.deleteRule, .deny)
        XCTAssertEqual(version.model(named: "Person")?.property(named: "pets")?.deleteRule, .cascade)
        XCTAssertEqual(version.model(named: "Pet")?.property(named: "owners")?.deleteRule, .deny)
        return SwiftGenerator().generate(compilation.histories)
    }

    /// The doc comment lines right above `var name:` in the generated text, joined.
    private func documentation(of name: String, in code: String) -> String {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        guard let declaration = lines.firstIndex(where: { $0.contains("var \(name):") }) else { return "" }
        var doc: [String] = []
        var index = declaration - 1
        while index >= 0, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
            doc.insert(lines[index].trimmingCharacters(in: .whitespaces).dropFirst(3).trimmingCharacters(in: .whitespaces),
                at: 0)
            index -= 1
        }
        return doc.joined(separator: " ")
    }

    func testTheRulesAreDocumentedOnTheirProperties() throws {
        let code = try generated()
        XCTAssertTrue(documentation(of: "staff", in: code).hasPrefix("On delete: deny. Deleting a `Company` fails"),
            documentation(of: "staff", in: code))
        XCTAssertTrue(documentation(of: "pets", in: code).hasPrefix(
            "On delete: cascade. Deleting a `Person` also deletes the objects this property reaches"),
            documentation(of: "pets", in: code))
        XCTAssertTrue(documentation(of: "owners", in: code).contains("the objects that link here through"),
            documentation(of: "owners", in: code))
        XCTAssertTrue(documentation(of: "name", in: code).hasPrefix("Unique: no two `Company` objects"))
        XCTAssertTrue(documentation(of: "firstName", in: code).hasPrefix("Unique together with `lastName`"))
        XCTAssertEqual(documentation(of: "employers", in: code), "", "nullify, the default, is not documented")
    }

    func testAppCodeUsingTheRulesTypeChecks() throws {
        let code = try generated()
        let app = """
            import Strata

            func use(_ db: Database, company: Company, pet: Pet) throws {
                try db.write { db.delete(company) }
                try db.write { db.delete(pet) }
                try db.write { db.deleteAll(Pet.self) }
                let owners: LinkingObjects<Person> = pet.owners
                let sorted = owners.sorted(byKeyPath: "lastName")
                _ = sorted
            }
            """
        let outcome = try SwiftTypeChecker().typeCheck([("Contacts.swift", code), ("App.swift", app)])
        XCTAssertTrue(outcome.succeeded, outcome.output)
    }
}

import Foundation
import StrataCodegen
import StrataSchemaCompiler
import XCTest

/// docs/SCHEMA.md's Contacts example, exactly as written there: it compiles, its rules (uniqueness, delete rules)
/// are documented on the generated properties, and app code using them type-checks.
final class ContactsExampleCodegenTests: XCTestCase {
    static let contacts = """
        schema: Contacts
        version: 1
        models:
          Address:
            embedded: true                      # no identity of its own: owned by exactly one parent object
            properties:
              street: string
              city: { type: string, indexed: true }
          Company:
            primaryKey: id
            properties:
              id: { type: objectId, default: auto }
              name: { type: string, unique: true }              # a second company with the same name is an error
              staff: { type: "[Person]", onDelete: deny }       # a company that still has staff cannot be deleted
          Person:
            primaryKey: id
            unique: [[firstName, lastName]]                     # compound uniqueness, like `indexes:`
            properties:
              id: { type: objectId, default: auto }
              firstName: string
              lastName: string
              home: Address?                                    # to-one embedded: deleted with its parent
              pastHomes: [Address]                              # list of embedded objects
              nicknames: set<string>                            # unordered, no duplicates
              scores: map<int>                                  # string keys; values of any element type
              extras: map<any?>
              favourite: any                                    # a mixed value: null, bool, int, double, string,
                                                                # data, date, uuid, decimal, objectId or any object
              balance: { type: decimal, default: 0 }
              notes: { type: string, fullText: true }           # full-text index, queried with TEXT
              pets: { type: "[Pet]", onDelete: cascade }        # deleting a person deletes their pets
              employers: { linkingObjects: Company.staff }
          Pet:
            properties:
              name: string
              owners: { linkingObjects: Person.pets, onDelete: deny }   # a pet someone still lists cannot be deleted
        """

    private func generated() throws -> String {
        let compilation = SchemaCompiler().compile(
            sources: [SchemaSource(path: "Contacts.v1.strata.yaml", text: Self.contacts)])
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

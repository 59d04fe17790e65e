import Foundation
import StrataCodegen
import StrataSchemaCompiler
import XCTest

/// Embedded models compiled: the generated classes derive from `EmbeddedObject`, app code assigns, nests and
/// queries them through their parents, and the calls that would give an embedded object a life of its own
/// (`objects(_:)`, `add(_:)`, `create(_:value:)`, `object(ofType:forPrimaryKey:)`) do not compile.
final class EmbeddedModelTypeCheckTests: XCTestCase {
    private let schema = """
        schema: Homes
        version: 1
        access: public
        models:
          Person:
            primaryKey: id
            properties:
              id: int
              home: Address?
              pastHomes: [Address]
          Address:
            embedded: true
            properties:
              street: string
              city: { type: string, indexed: true }
              geo: Geo?
              residents: { linkingObjects: Person.home }
          Geo:
            embedded: true
            properties:
              lat: double
        """

    private func generated() throws -> String {
        let compilation = SchemaCompiler().compile(sources: [SchemaSource(path: "Homes.v1.strata.yaml", text: schema)])
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        return SwiftGenerator().generate(compilation.histories)
    }

    func testGeneratedEmbeddedClassesTypeCheckWithAppCode() throws {
        let code = try generated()
        XCTAssertTrue(code.contains("final class Address: EmbeddedObject"), code)
        XCTAssertTrue(code.contains("final class Person: Object"), code)
        XCTAssertFalse(code.contains("extension Query where Element == Address"), "no typed query root for Address")
        let app = """
            import Strata

            func use(_ db: Database) throws {
                let ada = Person(id: 1, home: Address(street: "1", city: "Paris", geo: Geo(lat: 1)))
                try db.write {
                    db.add(ada)
                    ada.pastHomes.append(Address(street: "2", city: "Lyon"))
                    ada.home?.geo = Geo(lat: 2)
                    db.create(Person.self, value: ["id": 2, "home": ["street": "3", "city": "Nice"]])
                    if let home = ada.home { db.delete(home) }
                }
                let people = try db.objects(Person.self).where { $0.home.city == "Paris" }
                let sorted = db.objects(Person.self).sorted(byKeyPath: "home.city")
                let token = ada.home?.observe(keyPaths: ["geo.lat"]) { _ in }
                let owners: LinkingObjects<Person>? = ada.home?.residents
                let base: ObjectBase? = ada.home
                _ = (people, sorted, token, owners, base, ada.home?.isInvalidated, ada.home?.isManaged)
            }
            """
        let outcome = try SwiftTypeChecker().typeCheck([("Homes.swift", code), ("App.swift", app)])
        XCTAssertTrue(outcome.succeeded, outcome.output)
    }

    func testCallsThatWouldGiveAnEmbeddedObjectALifeOfItsOwnDoNotCompile() throws {
        let code = try generated()
        let checker = try SwiftTypeChecker()
        let misuses = [
            "_ = db.objects(Address.self)",
            "db.add(Address(street: \"1\", city: \"x\"))",
            "db.create(Address.self, value: [\"street\": \"1\"])",
            "_ = db.object(ofType: Address.self, forPrimaryKey: 1)",
            "let results: Results<Address>? = nil; _ = results",
        ]
        for misuse in misuses {
            let app = "import Strata\n\nfunc misuse(_ db: Database) {\n    \(misuse)\n}\n"
            let outcome = try checker.typeCheck([("Homes.swift", code), ("Misuse.swift", app)])
            XCTAssertFalse(outcome.succeeded, "compiled: \(misuse)")
            XCTAssertTrue(outcome.output.contains("Misuse.swift"), "\(misuse): \(outcome.output)")
        }
    }
}

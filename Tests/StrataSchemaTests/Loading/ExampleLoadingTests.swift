import StrataSchema
import StrataSchemaCompiler
import XCTest

final class ExampleLoadingTests: SchemaTestCase {
    func testSchemaExampleCompilesWithoutDiagnostics() throws {
        let compilation = compile(Examples.libraryV3, path: "Library.v3.strata.yaml")
        XCTAssertEqual(compilation.diagnostics, [])
        let history = try XCTUnwrap(compilation.histories.first)
        XCTAssertEqual(history.name, "Library")
        XCTAssertEqual(history.versions.map(\.version), [3])
        XCTAssertEqual(history.plans, [])
    }

    func testExampleTopLevelIsRead() throws {
        let version = try XCTUnwrap(loadVersion(Examples.libraryV3))
        XCTAssertEqual(version.schemaName, "Library")
        XCTAssertEqual(version.version, 3)
        XCTAssertEqual(version.access, .public)
        XCTAssertEqual(version.models.map(\.name), ["Person", "Book", "Loan"])
        XCTAssertEqual(version.removedModels, ["Shelf"])
        XCTAssertEqual(version.location.line, 1)
    }

    func testExamplePersonIsReadInEveryDetail() throws {
        let version = try XCTUnwrap(loadVersion(Examples.libraryV3))
        let person = try XCTUnwrap(version.model(named: "Person"))
        XCTAssertEqual(person.doc, "Someone who borrows books.")
        XCTAssertEqual(person.primaryKey, "id")
        XCTAssertEqual(person.removedProperties, ["firstName", "lastName"])
        XCTAssertTrue(person.needsCustomMigration)
        XCTAssertEqual(person.location, SourceLocation(path: "Test.strata.yaml", line: 5, column: 3))
        XCTAssertEqual(person.properties.map(\.name),
            ["id", "fullName", "age", "email", "birthdate", "avatar", "tags", "loans", "favourite", "status", "cache"])
        let types = Dictionary(uniqueKeysWithValues: person.properties.map { ($0.name, $0.type) })
        XCTAssertEqual(types["id"], .integer(.int))
        XCTAssertEqual(types["fullName"], .string)
        XCTAssertEqual(types["age"], .integer(.int))
        XCTAssertEqual(types["birthdate"], .optional(.date))
        XCTAssertEqual(types["avatar"], .optional(.data))
        XCTAssertEqual(types["tags"], .list(.string))
        XCTAssertEqual(types["loans"], .list(.link("Loan")))
        XCTAssertEqual(types["favourite"], .optional(.link("Book")))
        XCTAssertEqual(types["status"], .enumeration(["active", "suspended"]))
        XCTAssertEqual(types["cache"], .optional(.data))
        let age = try XCTUnwrap(person.property(named: "age"))
        XCTAssertEqual(age.renamedFrom, "yearsSinceBirth")
        XCTAssertEqual(age.location.line, 11)
        let email = try XCTUnwrap(person.property(named: "email"))
        XCTAssertEqual(email.defaultValue, .string(""))
        XCTAssertTrue(email.isIndexed)
        XCTAssertEqual(person.property(named: "status")?.defaultValue, .string("active"))
        XCTAssertEqual(person.property(named: "cache")?.isTransient, true)
        XCTAssertEqual(person.persistedProperties.map(\.name).contains("cache"), false)
    }

    func testExampleBookAndLoanAreRead() throws {
        let version = try XCTUnwrap(loadVersion(Examples.libraryV3))
        let book = try XCTUnwrap(version.model(named: "Book"))
        XCTAssertEqual(book.primaryKey, "isbn")
        XCTAssertEqual(book.compoundIndexes, [["author", "title"]])
        XCTAssertEqual(book.property(named: "title")?.isIndexed, true)
        XCTAssertEqual(book.property(named: "price")?.type, .double)
        XCTAssertEqual(book.property(named: "price")?.defaultValue, .double(0), "an integer default of a double")
        XCTAssertEqual(book.property(named: "borrowers")?.type, .linkingObjects(model: "Person", property: "loans"))
        let loan = try XCTUnwrap(version.model(named: "Loan"))
        XCTAssertEqual(loan.property(named: "id")?.defaultValue, .auto)
        XCTAssertEqual(loan.property(named: "since")?.type, .date)
        XCTAssertEqual(loan.property(named: "since")?.defaultValue, .auto)
        XCTAssertEqual(loan.property(named: "book")?.type, .optional(.link("Book")))
    }
}

extension ExampleLoadingTests {
    func testLinkingObjectsThroughALinkingModelFollowsItsOnlyLinkBack() throws {
        let version = try XCTUnwrap(loadVersion(Examples.libraryV3))
        let book = try XCTUnwrap(version.model(named: "Book"))
        let borrowers = try XCTUnwrap(book.property(named: "borrowers"))
        XCTAssertEqual(version.linkingObjectsKeyPath(of: borrowers, in: "Book"), ["loans", "book"])
    }
}

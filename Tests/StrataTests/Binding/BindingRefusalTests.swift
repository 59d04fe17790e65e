import Foundation
import StrataTestSupport
import XCTest

@testable import Strata
@testable import StrataStorage

/// Opening a database checks every model's table against the schema from the table's shape (its record, no table
/// built): a file whose table lacks a model's column, stores it with another type, is missing altogether or is
/// embedded where the schema says it is not is refused with `schemaMismatch` naming what differs, and the file
/// keeps its data.
final class BindingRefusalTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// A Notes file with three notes, then `damage` applied to its catalog with the storage engine directly.
    private func notesFile(_ name: String, damage: (Catalog) throws -> Void) throws -> Configuration {
        var configuration = Configuration(schema: Notes.self)
        configuration.fileURL = directory.url.appendingPathComponent(name)
        do {
            let database = try Database(configuration: configuration)
            try database.write {
                for text in ["a", "b", "c"] { database.add(Note(text: text)) }
            }
        }
        let store = try Store.open(path: configuration.fileURL.path)
        defer { store.close() }
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        try damage(catalog)
        try catalog.flush()
        try write.commit()
        return configuration
    }

    private func assertRefused(
        _ configuration: Configuration, mentioning words: [String], line: UInt = #line
    ) {
        XCTAssertThrowsError(try Database(configuration: configuration), line: line) { error in
            guard case StrataError.schemaMismatch(let path, let detail) = error else {
                return XCTFail("expected schemaMismatch, got \(error)", line: line)
            }
            XCTAssertEqual(path, configuration.fileURL.path, line: line)
            for word in words { XCTAssertTrue(detail.contains(word), "'\(word)' in: \(detail)", line: line) }
        }
    }

    func testAMissingColumnIsRefusedNamingTheProperty() throws {
        let configuration = try notesFile("missing-column.strata") { catalog in
            let table = try XCTUnwrap(catalog.table(named: "Note"))
            try table.removeColumn(try XCTUnwrap(table.column(named: "writer")).key)
        }
        assertRefused(configuration, mentioning: ["Note.writer", "int", "missing or of another type"])
    }

    func testAColumnOfAnotherTypeIsRefusedNamingTheProperty() throws {
        let configuration = try notesFile("other-type.strata") { catalog in
            let table = try XCTUnwrap(catalog.table(named: "Note"))
            try table.removeColumn(try XCTUnwrap(table.column(named: "text")).key)
            _ = try table.addColumn(named: "text", type: .value(.double), defaultValue: .double(0))
        }
        assertRefused(configuration, mentioning: ["Note.text", "string"])
    }

    func testAMissingTableIsRefusedNamingTheModel() throws {
        let configuration = try notesFile("missing-table.strata") { catalog in
            try catalog.removeTable(named: "Notebook")
        }
        assertRefused(configuration, mentioning: ["no table for model Notebook"])
    }

    func testAnEmbeddedTableForATopLevelModelIsRefused() throws {
        let configuration = try notesFile("embedded.strata") { catalog in
            try XCTUnwrap(catalog.table(named: "Notebook")).setEmbedded(true)
        }
        assertRefused(configuration, mentioning: ["model Notebook is not embedded in the schema"])
        // Nothing was lost: undoing the damage opens the file with its notes.
        let store = try Store.open(path: configuration.fileURL.path)
        let write = try store.beginWrite()
        let catalog = try Catalog(writer: write)
        try XCTUnwrap(catalog.table(named: "Notebook")).setEmbedded(false)
        try catalog.flush()
        try write.commit()
        store.close()
        let database = try Database(configuration: configuration)
        XCTAssertEqual(Array(database.objects(Note.self)).map { $0.text }.sorted(), ["a", "b", "c"])
    }
}

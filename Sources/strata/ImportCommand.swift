import ArgumentParser
import Foundation
import Strata
import StrataStorage
import StrataStudio

/// `strata import FILE Model FILE [--format json|csv]`: adds or updates a model's objects from a JSON array or a
/// CSV table in the form `strata export` writes, in one write transaction: a bad value fails the import, naming
/// its JSON path (or CSV row and column), and leaves the file as it was.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add or update a model's objects from JSON or CSV (the forms strata export writes); all or nothing.")

    @Argument(help: "The database file (NAME.strata).")
    var file: String

    @Argument(help: "The model the objects belong to.")
    var model: String

    @Argument(help: "The JSON file (an array of objects) or CSV file (a header row of property names).")
    var jsonFile: String

    @Option(help: "json (default) or csv.")
    var format: ExportCommand.Format = .json

    @OptionGroup var keyFile: KeyFileOption

    func run() throws {
        guard let data = FileManager.default.contents(atPath: jsonFile) else {
            throw ValidationError("cannot read the JSON file '\(jsonFile)'")
        }
        let bytes = Array(data)
        guard FileManager.default.fileExists(atPath: file) else {
            throw ValidationError("no database exists at '\(file)'; strata imports into existing databases only")
        }
        let store = try Store.open(path: file, options: try keyFile.storeOptions())
        defer { store.close() }
        let count = try store.namingFile { () throws -> Int in
            let transaction = try store.beginWrite()
            do {
                let catalog = try Catalog(writer: transaction)
                let table = try TableChoice.table(named: model, in: catalog)
                let reader = RowJSONReader(catalog: catalog)
                let count = format == .csv
                    ? try reader.importObjects(try CSVReader(bytes).objects(for: table, catalog: catalog), into: table)
                    : try reader.importObjects(json: bytes, into: table)
                try catalog.flush()
                try transaction.commit()
                return count
            } catch {
                transaction.rollback()
                throw error
            }
        }
        print("Imported \(count) \(model) object(s) into \(file)")
    }
}

import ArgumentParser
import Foundation
import Strata
import StrataStorage
import StrataStudio

/// `strata export FILE Model [--filter PREDICATE] [--format json|csv]`: a model's objects as JSON (the form of
/// the app's snapshots and `Database.exportJSON`) or CSV, from the tables the file describes, with no app code.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a model's objects as JSON (the snapshots' form) or CSV to standard output.")

    /// The two output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, csv

        /// The shared writer's format.
        var exportFormat: ObjectExport.Format { self == .json ? .json : .csv }
    }

    @Argument(help: "The database file (NAME.strata).")
    var file: String

    @Argument(help: "The model whose objects to write (a table of the file; `strata info` lists them).")
    var model: String

    @Option(help: "Only the objects this predicate selects, e.g. \"age >= 18 AND home.city == 'Oslo'\".")
    var filter: String?

    @Option(help: "json (default) or csv.")
    var format: Format = .json

    @Flag(help: "Indent the JSON.")
    var pretty = false

    @OptionGroup var keyFile: KeyFileOption

    func run() throws {
        let store = try keyFile.openExistingStore(file)
        defer { store.close() }
        let reader = try store.beginRead()
        defer { reader.end() }
        let bytes = try store.namingFile { () throws -> [UInt8] in
            let catalog = try Catalog(reader: reader)
            let table = try TableChoice.table(named: model, in: catalog)
            let keys = try ObjectExport.keys(of: table, catalog: catalog, filter: filter)
            return try ObjectExport.write(
                keys, of: table, catalog: catalog, format: format.exportFormat, pretty: pretty)
        }
        FileHandle.standardOutput.write(Data(bytes))
    }
}

/// The table a command names, or an error listing the file's models.
enum TableChoice {
    /// The table of model `name` in `catalog`; an embedded model's is refused (its objects are their owners').
    static func table(named name: String, in catalog: Catalog) throws -> Table {
        let models = catalog.tables.filter { !$0.isEmbedded }.map(\.name).sorted()
        guard let table = catalog.table(named: name) else {
            throw ValidationError(
                "the file has no model '\(name)'; its models are " + models.joined(separator: ", "))
        }
        guard !table.isEmbedded else {
            throw ValidationError(
                "\(name) is embedded: its objects are exported and imported inside their owners' (\(models.joined(separator: ", ")))")
        }
        return table
    }
}

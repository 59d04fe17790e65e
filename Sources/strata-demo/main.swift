import Foundation
import Strata

// A small lending library kept in a Strata database.
//
// The models (Author, Book, Member, Loan) and the `Library` schema type are generated at build time by the
// StrataPlugin from Schemas/strata-demo/Library.v1…v3.strata.yaml. The first run creates the database in the
// default location and fills it; every later run finds the data there, lends and returns a book, and shows what
// changed. `swift run strata-demo --reset` starts over; `--path FILE` uses another file.

let options = DemoOptions(CommandLine.arguments.dropFirst())
var configuration = Configuration(schema: Library.self, migrations: LibraryMigrationsForDemo())
if let path = options.path { configuration.fileURL = URL(fileURLWithPath: path) }
Configuration.defaultConfiguration = configuration

do {
    if options.reset, try Database.deleteFiles(for: configuration) {
        print("Deleted \(configuration.fileURL.path)")
    }
    let db = try Database()
    print("Database: \(configuration.fileURL.path)")
    print("Schema \(Library.name) v\(Library.version): \(Library.objectTypes.count) models")

    let library = DemoLibrary(db: db)
    let board = try ShelfBoard(configuration: configuration)
    if db.objects(Book.self).isEmpty {
        print("\nFirst run: the database is empty, so the demo fills it.")
        try library.fill()
    } else {
        print("\nThe data of an earlier run is here: \(db.objects(Book.self).count) books, "
            + "\(db.objects(Member.self).count) members, \(db.objects(Loan.self).count) loans.")
        try library.lendAndReturn()
    }
    // The board follows the commits on its own queue; nothing in the writes above mentions it.
    board.waitUntilCurrent(with: db.version)
    library.printReport()
    print("")
    board.printChanges()
    board.printShelf()
    board.close()
    print("\nRun `swift run strata-demo` again: the data survives, and the next loan is recorded.")
} catch {
    print("strata-demo: \(error)")
    exit(1)
}

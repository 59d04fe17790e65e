import Foundation
import StrataTestSupport
import XCTest

@testable import Strata
import StrataStorage

/// A test case over a fresh database of the `Homes` schema (embedded `Address` and `Geo`), or of the schema a
/// subclass names in `makeConfiguration()`, with ways to look at the embedded tables directly.
class EmbeddedTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var configuration: Configuration!
    var db: Database!

    /// The configuration of the schema the tests run on; its file goes in a fresh temporary folder.
    class func makeConfiguration() -> Configuration { Configuration(schema: Homes.self) }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = Self.makeConfiguration().scratch(at: directory.url.appendingPathComponent("store.strata"))
        db = try Database(configuration: configuration)
    }

    override func tearDown() {
        db = nil
        directory = nil
    }

    /// The storage table of model `name` in `database` (the test's own when `nil`).
    func table(_ name: String, in database: Database? = nil) throws -> Table {
        let database = database ?? db!
        return try database.table(for: XCTUnwrap(database.schema.model(named: name)))
    }

    /// How many objects the table of model `name` holds (embedded tables included).
    func count(_ name: String, in database: Database? = nil) throws -> Int {
        let database = database ?? db!
        guard let model = database.schema.model(named: name) else { throw StrataError.invalidArgument(name) }
        return try database.table(for: model).count()
    }

    /// The number of slots (links and list elements) holding each object of model `name`, by object key.
    func owners(_ name: String) throws -> [Int64: Int] {
        guard let model = db.schema.model(named: name) else { throw StrataError.invalidArgument(name) }
        let table = try db.table(for: model)
        var owners: [Int64: Int] = [:]
        for key in try table.keys() { owners[key.rawValue] = try table.backlinkCount(of: key) }
        return owners
    }
}

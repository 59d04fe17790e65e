import Foundation
import StrataTestSupport
import XCTest

@testable import Strata
import StrataStorage

/// A test case over a fresh database of the `Homes` schema (embedded `Address` and `Geo`), with ways to look at
/// the embedded tables directly.
class EmbeddedTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var configuration: Configuration!
    var db: Database!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = Configuration(schema: Homes.self)
        configuration.fileURL = directory.url.appendingPathComponent("homes.strata")
        configuration.durability = .none
        db = try Database(configuration: configuration)
    }

    override func tearDown() {
        db = nil
        directory = nil
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

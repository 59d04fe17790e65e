import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// A test case that opens a fresh database in a temporary directory for each test.
class DatabaseTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var configuration: Configuration!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = makeConfiguration().scratch(at: directory.url.appendingPathComponent("test.strata"))
    }

    /// The configuration of the test's schema (`Zoo`; subclasses may use another).
    func makeConfiguration() -> Configuration {
        Configuration(schema: Zoo.self)
    }

    override func tearDown() {
        directory = nil
    }

    /// A new database over the test's file.
    func openDatabase() throws -> Database {
        try Database(configuration: configuration)
    }
}

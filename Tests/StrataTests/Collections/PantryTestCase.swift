import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// A test case that opens a fresh Pantry database (sets and maps) in a temporary directory for each test.
class PantryTestCase: XCTestCase {
    var directory: TemporaryDirectory!
    var configuration: Configuration!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = Configuration(schema: Pantry.self)
            .scratch(at: directory.url.appendingPathComponent("pantry.strata"))
    }

    override func tearDown() {
        directory = nil
    }

    /// A new database over the test's file.
    func openDatabase() throws -> Database {
        try Database(configuration: configuration)
    }
}

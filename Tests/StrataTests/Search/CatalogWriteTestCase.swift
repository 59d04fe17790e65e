import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Tests that drive the storage engine's tables directly: a scratch store (`durability: .none`) in a temporary
/// directory, one write transaction begun on it and its catalog, rolled back and closed after each test.
class CatalogWriteTestCase: XCTestCase {
    /// The test's directory.
    var directory: TemporaryDirectory!
    /// The store, `NAME.strata` in `directory` (`storeFileName`).
    var store: Store!
    /// The write transaction the test works in (a test that commits begins the next one itself).
    var write: WriteTransaction!
    /// `write`'s catalog (a table only borrows its catalog, so the test keeps it).
    var catalog: Catalog!

    /// The store file's name.
    var storeFileName: String { "test.strata" }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        store = try Store.open(
            path: directory.url.appendingPathComponent(storeFileName).path, options: StoreOptions(durability: .none))
        write = try store.beginWrite()
        catalog = try Catalog(writer: write)
    }

    override func tearDown() {
        catalog = nil
        write?.rollback()
        store?.close()
        directory = nil
    }
}

import ArgumentParser
import Foundation
import StrataStorage

extension KeyFileOption {
    /// Opens the existing database `file` read-only, as every command does, with advice for the command line: the
    /// store's own message for a missing or empty file tells an app to open it without `readOnly`, which a user of
    /// `strata` cannot do (and `strata` never creates databases).
    ///
    /// - Throws: What `Store.open` throws, a missing database as an `io` error that says what to check.
    func openExistingStore(_ file: String) throws -> Store {
        do {
            return try Store.open(path: file, options: try storeOptions(readOnly: true))
        } catch StrataError.io(let operation, let path, let code, _) where code == ENOENT {
            throw StrataError.io(
                operation: operation, path: path, errno: code,
                message: "no database exists here (the file is missing or empty); check the path: strata reads "
                    + "existing databases and never creates one")
        }
    }
}

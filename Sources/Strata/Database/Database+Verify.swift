import StrataStorage

extension Database {
    /// Checks the database file's structure (see `Store.verifyAll()`): a damaged file gives a `StrataError` that
    /// says where.
    ///
    /// - Returns: The version, table and object counts checked.
    @discardableResult
    public func verify() throws -> VerifyReport {
        try withAccess("Database.verify()") { try store.verifyAll() }
    }
}

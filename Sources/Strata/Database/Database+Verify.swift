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

    /// What the database file holds right now: its size, the bytes live data uses, the free bytes and, of those,
    /// the bytes waiting for readers of older versions to finish, with the versions they pin. For seeing why a
    /// file grows: a database (or frozen snapshot) kept open on an old version, in this process or another,
    /// keeps every page later commits replace. `refresh()` or releasing it lets them be reused; compacting
    /// (``Configuration/shouldCompactOnLaunch``, ``writeCopy(to:)``) gives free space back to the disk.
    ///
    /// A version this database is reading counts among the pins.
    ///
    /// - Throws: `StrataError.corruptFile` when the free list is damaged; `StrataError.io`.
    public var fileStatus: FileStatus {
        get throws { try withAccess("Database.fileStatus") { try store.status } }
    }
}

extension Store {
    /// Checks the whole store, pages and tables: pages reachable plus free pages cover the file exactly once,
    /// every node's checksum holds, every index matches its table, links and backlinks agree, primary keys are
    /// unique.
    ///
    /// - Returns: What was checked, for reports (`strata verify`).
    /// - Throws: `StrataError.corruptFile` naming the first problem found.
    @discardableResult
    package func verifyAll() throws -> VerifyReport {
        try namingFile {
            try verify { reader, visit in try Catalog(reader: reader).forEachNode(visit) }
            let reader = try beginRead()
            defer { reader.end() }
            let catalog = try Catalog(reader: reader)
            try catalog.verify()
            var objects = 0
            for table in catalog.tables { objects += try table.count() }
            return VerifyReport(
                version: reader.version, tables: catalog.tables.count, objects: objects, openRecovery: openRecovery)
        }
    }
}

/// What `Store.verifyAll()` checked.
public struct VerifyReport: Sendable, Hashable {
    /// The version checked (the newest committed one).
    public var version: UInt64
    /// How many tables it holds.
    public var tables: Int
    /// How many objects, over all tables.
    public var objects: Int
    /// What opening the file found when its newest commit was not whole (`Store.openRecovery`): the file checks,
    /// but at an older version than the one it names. `nil` when the newest commit opened.
    public var openRecovery: OpenRecovery? = nil
}

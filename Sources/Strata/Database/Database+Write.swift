import Foundation
import StrataStorage

extension Database {
    /// Whether a write transaction is open.
    public var isInWriteTransaction: Bool { writeTransaction != nil }

    /// Runs `block` in a write transaction and commits it; if `block` throws (or an operation in it failed), the
    /// transaction is cancelled and the error rethrown, so nothing of it is kept.
    ///
    /// - Returns: What `block` returns.
    /// - Throws: `StrataError.transactionMisuse` inside another write, `StrataError.readOnly` on a read-only
    ///   database, the first failure of an operation in `block`, what `block` throws, or a commit failure.
    @discardableResult
    public func write<Result>(_ block: () throws -> Result) throws -> Result {
        try runWrite("write(_:)", withoutNotifying: [], block)
    }

    /// `write(_:)` and `write(withoutNotifying:_:)`: `block` in a write transaction, committed unless it throws.
    func runWrite<Result>(
        _ caller: String, withoutNotifying tokens: [NotificationToken], _ block: () throws -> Result
    ) throws -> Result {
        try store.namingFile {
            try startWrite(caller)
            return try runBegunWrite(withoutNotifying: tokens, block)
        }
    }

    /// Runs `block` in the write transaction just begun and commits it; if `block` throws (or an operation in it
    /// failed), cancels the transaction and rethrows, so nothing of it is kept.
    func runBegunWrite<Result>(
        withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result
    ) throws -> Result {
        let result: Result
        do {
            result = try block()
        } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return result
    }

    /// Begins a write transaction, waiting for any other writer (thread or process) to finish. The database moves
    /// to the newest version first.
    ///
    /// Nesting writes or writing a read-only database is a programming error and stops the program with a
    /// message; use ``write(_:)`` to have those thrown instead.
    public func beginWrite() {
        do {
            try startWrite("beginWrite()")
        } catch let error as StrataError {
            switch error {
            case .transactionMisuse, .readOnly: preconditionFailure("Strata: \(error)")
            default:
                // The writer lock or the file failed: keep a doomed transaction so commitWrite() reports it.
                pendingError = error
            }
        } catch {
            pendingError = error
        }
    }

    func startWrite(_ what: String) throws {
        _ = try startWrite(what, waiting: true)
    }

    /// Begins a write transaction, waiting for any other writer or, when `waiting` is false, returning `false` at
    /// once when another thread or process holds the writer lock.
    func startWrite(_ what: String, waiting: Bool) throws -> Bool {
        confinement.check("Database.\(what)")
        guard writeTransaction == nil, pendingError == nil else {
            throw StrataError.transactionMisuse(
                "\(what) inside a write transaction: writes do not nest. Do the work inside the outer write.")
        }
        guard !isReadOnly else {
            throw StrataError.readOnly(path: isFrozen ? "a frozen snapshot" : store.path)
        }
        guard let transaction = waiting ? try store.beginWrite() : try store.tryBeginWrite() else { return false }
        do {
            let catalog = try Catalog(writer: transaction)
            // A synced file's writes note their changes as they make them: the outbox is recorded from that.
            if recordsSyncChanges { catalog.changeLog = WriteChangeLog() }
            writeCatalog = catalog
        } catch {
            transaction.rollback()
            throw error
        }
        writeTransaction = transaction
        readCatalog = nil
        readTransaction = nil
        forgetTables()
        noteChange()
        return true
    }

    /// Commits the write transaction: its changes become durable (as `Configuration.durability` says) and
    /// visible to every other database.
    ///
    /// - Throws: The first failure of an operation in the transaction (which is then cancelled), or the
    ///   commit's own failure (an I/O error, a full disk): nothing was committed.
    public func commitWrite() throws {
        confinement.check("Database.commitWrite()")
        if let pendingError {
            cancelWrite()
            throw pendingError
        }
        guard let writeTransaction, let writeCatalog else {
            throw StrataError.transactionMisuse("commitWrite() without a write transaction: call beginWrite() first")
        }
        do {
            if recordsSyncChanges { try recordSyncChanges(in: writeCatalog) }
            try writeCatalog.flush()
            try writeTransaction.commit()
        } catch {
            cancelWrite()
            throw error
        }
        self.writeTransaction = nil
        self.writeCatalog = nil
        forgetTables()
        noteChange()
        if recordsSyncChanges { syncSession?.localChangesCommitted() }
    }

    /// Cancels the write transaction: nothing it changed is kept, and objects added in it are invalidated.
    public func cancelWrite() {
        confinement.check("Database.cancelWrite()")
        pendingError = nil
        writeTransaction?.rollback()
        writeTransaction = nil
        writeCatalog = nil
        forgetTables()
        noteChange()
    }

    /// Stops the program unless a write transaction is open (writing outside one is a programming error).
    func requireWrite(_ what: @autoclosure () -> String) {
        confinement.check(what())
        if writeTransaction == nil, pendingError == nil {
            preconditionFailure(
                "Strata: cannot \(what()) outside a write transaction: wrap it in `try db.write { … }` "
                    + "or call beginWrite() first")
        }
    }

    /// Runs a change of the current write, recording its failure (the write is then doomed) instead of throwing.
    ///
    /// - Returns: What `change` returns, or `nil` when it failed or an earlier change had failed.
    @discardableResult
    func perform<R>(_ change: () throws -> R) -> R? {
        guard pendingError == nil else { return nil }
        do {
            let result = try change()
            noteChange()
            return result
        } catch {
            pendingError = error
            noteChange()  // the change may have been made in part
            return nil
        }
    }
}

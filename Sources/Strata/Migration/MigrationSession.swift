import StrataSchema
import StrataStorage

/// The state one migration shares between its steps, its object views and the app's code: the write
/// transaction's catalog, the step being run, the first failure of a call that cannot throw, and progress.
final class MigrationSession {
    /// The catalog of the migration's single write transaction.
    let catalog: Catalog
    /// The database file, for messages.
    let path: String
    /// The configuration being opened (custom steps, the untyped block, the progress callback).
    let configuration: Configuration
    /// The step being run.
    var fromVersion: Int
    var toVersion: Int
    /// The first failure of an accessor call (accessors cannot throw); the step throws it when the app's code
    /// returns, which abandons the whole migration.
    var pendingError: Error?
    /// Progress reported to ``Configuration/migrationProgress``.
    private(set) var progress: MigrationProgress
    private var reportedAt = 0
    /// Objects the file held at the start: each step's share of ``MigrationProgress/total``.
    private let objectsPerStep: Int
    /// Where the current step's share ends.
    private var stepEnd = 0

    init(catalog: Catalog, path: String, configuration: Configuration, from: Int, to: Int, totalObjects: Int) {
        self.catalog = catalog
        self.path = path
        self.configuration = configuration
        fromVersion = from
        toVersion = to
        let steps = max(1, to - from)
        objectsPerStep = totalObjects
        progress = MigrationProgress(
            fromVersion: from, toVersion: to, currentStep: from, done: 0, total: totalObjects * steps)
    }

    /// The table with `key`, or an error naming what the step was doing.
    func table(_ key: TableKey, for what: @autoclosure () -> String) throws -> Table {
        guard let table = catalog.table(key) else {
            throw failure("the table of \(what()) disappeared during the migration")
        }
        return table
    }

    /// A `migrationFailed` error for the current step.
    func failure(_ detail: String) -> StrataError {
        .migrationFailed(path: path, fromVersion: fromVersion, toVersion: toVersion, detail: detail)
    }

    /// Records the first failure of a call that cannot throw.
    func record(_ error: Error) {
        if pendingError == nil { pendingError = error }
    }

    /// Throws (and clears) the recorded failure, if any.
    func throwPendingError() throws {
        if let pendingError {
            self.pendingError = nil
            throw pendingError
        }
    }

    // MARK: Progress

    /// Counts `objects` more objects as processed, reporting every 1,024 objects so that the callback costs
    /// nothing noticeable. A step that visits its objects more than once (several conversions) stays within its
    /// share: `done` then waits just below the share's end until the step finishes.
    func advance(by objects: Int = 1) {
        progress.done = min(progress.done + objects, max(stepEnd - 1, progress.done))
        if progress.done - reportedAt >= 1_024 { report() }
    }

    /// Marks step number `index` (from 0), arriving at version `step`, as begun, and reports.
    func begin(step: Int, index: Int) {
        progress.currentStep = step
        progress.done = max(progress.done, objectsPerStep * index)
        stepEnd = objectsPerStep * (index + 1)
        report()
    }

    /// Marks the migration as finished and reports.
    func finish() {
        progress.done = progress.total
        report()
    }

    private func report() {
        reportedAt = progress.done
        configuration.migrationProgress?(progress)
    }

    // MARK: Iterating

    /// Calls `body` with every object key of `table`, in key order, reading one key at a time by position so that
    /// no list of the table's objects is built. `body` must not insert or delete objects of `table`.
    ///
    /// Writes made through ``write(_:key:column:of:)`` during the pass are batched (see there) and all written
    /// when it ends.
    func forEachObject(of table: Table, _ body: (ObjectKey) throws -> Void) throws {
        let count = try table.count()
        var position = 0
        isBatching = true
        defer { isBatching = false }
        while position < count {
            try body(try table.key(at: position))
            position += 1
            advance()
        }
        try writeBatch()
    }

    // MARK: Batched writes

    /// One cell waiting in the batch.
    private struct Cell: Hashable {
        let table: TableKey
        let key: ObjectKey
        let column: ColumnKey
    }

    /// Whether writes are batched now (during a pass over a table's objects).
    private var isBatching = false
    /// Values waiting to be written, by table.
    private var batch: [TableKey: [Table.UnindexedValue]] = [:]
    private var batchedCells: Set<Cell> = []
    /// How many values a batch holds before it is written: bounds the memory a pass over a big table takes.
    private static let batchLimit = 16_384

    /// Writes `value` to `column` of object `key` of `table`.
    ///
    /// During a pass over a table's objects, values of unindexed, link-free columns are collected and written
    /// cluster by cluster (`Table.setUnindexedValues`), which is what makes filling a column of a big table fast;
    /// other writes happen at once, after the batch.
    func write(_ value: StorageValue, key: ObjectKey, column: ColumnKey, of table: Table) throws {
        guard isBatching, table.acceptsUnindexedValues(in: column) else {
            try writeBatch()
            return try table.set(key, column: column, to: value)
        }
        batch[table.key, default: []].append(Table.UnindexedValue(key: key, column: column, value: value))
        batchedCells.insert(Cell(table: table.key, key: key, column: column))
        if batchedCells.count >= Self.batchLimit { try writeBatch() }
    }

    /// Writes the batch first if it holds a value for this cell, so that a read sees the values written before it.
    func writeBatch(ifItHolds key: ObjectKey, column: ColumnKey, of table: TableKey) throws {
        guard !batchedCells.isEmpty, batchedCells.contains(Cell(table: table, key: key, column: column)) else { return }
        try writeBatch()
    }

    /// Writes every batched value.
    func writeBatch() throws {
        guard !batch.isEmpty else { return }
        let pending = batch
        batch = [:]
        batchedCells = []
        for (tableKey, changes) in pending {
            try self.table(tableKey, for: "a batched write").setUnindexedValues(changes)
        }
    }
}

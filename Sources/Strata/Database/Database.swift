import Foundation
import Observation
import StrataSchema
import StrataStorage

/// One open database: the object graph of a `Configuration`'s schema, in a file or in memory.
///
/// A database belongs to the thread that opened it (see ``ThreadSafeReference`` and `freeze()` to cross). It
/// reads one committed version at a time, so what it shows never changes under you: it moves to the newest
/// version at ``refresh()``, at the start of a write, when you ask for ``objects(_:)`` or
/// ``object(ofType:forPrimaryKey:)-(_,Any)`` (with ``autorefresh``), and when it delivers notifications.
///
/// ```swift
/// let db = try Database(configuration: config)
/// try db.write {
///     db.add(Person(id: 1, fullName: "Ana", age: 30))
/// }
/// let adults = db.objects(Person.self)
/// ```
public final class Database {
    /// The configuration it was opened with.
    public let configuration: Configuration
    /// Whether the database was opened read-only.
    public var isReadOnly: Bool { configuration.readOnly || isFrozen }
    /// Whether this is an immutable snapshot (see `freeze()`), readable from any thread.
    public let isFrozen: Bool
    /// Whether the database moves to the newest committed version on its own at the start of each query, lookup
    /// and write (default `true`). When `false`, only ``refresh()`` and writes move it.
    ///
    /// Like the transactions below, read at every query and lookup and not checked for exclusive access at run time.
    @exclusivity(unchecked) public var autorefresh = true

    let store: Store
    let schema: SchemaBinding
    let confinement: ThreadConfinement
    /// Serializes the reads of a frozen database, which any thread may use.
    let frozenLock: NSLock?

    // The transactions, their catalogs and the tables looked up in them are read by every query, lookup and
    // property access, and not checked for exclusive access at run time: the database is used by one thread at a
    // time (its confinement, or the frozen lock), and they are only read and assigned whole, never held `inout`
    // across a call.
    @exclusivity(unchecked) var readTransaction: ReadTransaction?
    @exclusivity(unchecked) var readCatalog: Catalog?
    @exclusivity(unchecked) var writeTransaction: WriteTransaction?
    @exclusivity(unchecked) var writeCatalog: Catalog?
    /// The first failure of an operation that cannot throw (`add`, `create`, a property setter) in the current
    /// write: the write is doomed, later changes are skipped, and `write`/`commitWrite` throw it.
    var pendingError: Error?
    /// Changes whenever what this database shows may have changed (a refresh, a commit, any change inside a
    /// write): results and linking objects cache their keys against it.
    private(set) var changeStamp: UInt64 = 0
    /// The observers of this database and its collections and objects, created by the first `observe`.
    var notifier: Notifier?
    /// Asked by results reads, lookups and (once ``observationArmed``) property reads whether they run inside
    /// Swift's observation tracking (see ``ObservationProbe``).
    let observationProbe = ObservationRegistrar()
    /// Whether property reads ask ``observationProbe``: set for good by the first read of results, `objects(_:)`
    /// or a primary-key lookup inside observation tracking, so that a database never read under tracking (a
    /// background import, a benchmark) pays one flag test per property read, not the probe's call.
    @exclusivity(unchecked) var observationArmed = false
    /// The query shapes `filter` bound to this database's models and planned, rebound per call to new arguments.
    let queryPlans = QueryPlanCache()
    /// The catalog whose tables ``tables`` holds. Held (not compared by address) so that a newer catalog at the
    /// same address cannot pass for it; let go with the catalog itself (``forgetTables()``), as it pins its version.
    @exclusivity(unchecked) private var tablesCatalog: Catalog?
    /// The tables of `tablesCatalog` looked up so far, by model position (``ModelBinding/index``): every property
    /// read asks for its table, and a catalog finds one by searching its list.
    @exclusivity(unchecked) private var tables: [Table?] = []
    /// The session that syncs this database's file, when its configuration has ``Configuration/sync``
    /// (docs/SYNC.md, "The client"): its state, progress and errors, and the calls that wait for it.
    public internal(set) var syncSession: SyncSession?
    /// Whether commits record their changes in the sync outbox: set for an app's database with a sync
    /// configuration, clear for the session's own database, whose writes apply the server's changes.
    var recordsSyncChanges = false
    /// The outbox entries this database decoded while applying downloaded pages (the sync session's own database).
    lazy var decodedOutbox = DecodedOutbox()

    /// Opens the database of ``Configuration/defaultConfiguration``.
    ///
    /// - Throws: `StrataError.invalidArgument` when no default configuration was set; whatever
    ///   ``init(configuration:)`` throws.
    public convenience init() throws {
        guard let configuration = Configuration.defaultConfiguration else {
            throw StrataError.invalidArgument(
                "Database() opens Configuration.defaultConfiguration, which is not set: set it at launch, "
                    + "for example `Configuration.defaultConfiguration = Configuration(schema: MySchema.self)`")
        }
        try self.init(configuration: configuration)
    }

    /// Opens (creating when missing) the database `configuration` describes, migrating an older file.
    ///
    /// The database belongs to the calling thread; opened inside a Swift task off the main thread, to the task,
    /// which it follows across `await`s onto whatever thread resumes it (see ``init(configuration:actor:)`` for
    /// an actor's database, ``init(configuration:queue:)`` for a queue's).
    ///
    /// - Throws: `StrataError` when the file cannot be opened or is damaged, holds another schema or an edited
    ///   history, is newer than the code, or needs a migration that fails.
    public convenience init(configuration: Configuration) throws {
        try self.init(configuration: configuration, confinement: .current())
    }

    /// Opens the database `configuration` describes, confined to `actor` instead of the calling thread or task:
    /// use it (and what it hands out) only from code isolated to `actor`, whichever task or thread runs it. For
    /// a data layer that is an actor holding its database, as Realm's `Realm(actor:)`.
    ///
    /// ```swift
    /// actor Library {
    ///     private var db: Database?
    ///     func database() throws -> Database {
    ///         if let db { return db }
    ///         let opened = try Database(configuration: config, actor: self)
    ///         db = opened
    ///         return opened
    ///     }
    /// }
    /// ```
    ///
    /// Used from outside the actor, it stops the program with Swift's own message naming the actor (Swift can ask
    /// "is this code on that actor?" only that way). The database keeps no strong reference to `actor`. Observing
    /// needs a queue (`observe(on:)`): an actor has no queue of its own to deliver on.
    ///
    /// - Throws: What ``init(configuration:)`` throws.
    public convenience init(configuration: Configuration, actor: any Actor) throws {
        try self.init(configuration: configuration, confinement: .actor(actor))
    }

    /// Opens the database `configuration` describes, confined to the serial `queue` instead of the calling
    /// thread: use it (and what it hands out) only from blocks running on `queue`. Its notifications are
    /// delivered on `queue`.
    ///
    /// - Throws: What ``init(configuration:)`` throws.
    public convenience init(configuration: Configuration, queue: DispatchQueue) throws {
        try self.init(configuration: configuration, confinement: .queue(queue))
    }

    init(configuration: Configuration, confinement: ThreadConfinement) throws {
        self.configuration = configuration
        self.isFrozen = false
        self.confinement = confinement
        self.frozenLock = nil
        let opened = try DatabaseOpener(configuration: configuration).open()
        self.store = opened.store
        self.schema = opened.schema
        // The version the schema was checked in is the newest one (or was a moment ago: autorefresh moves on).
        readTransaction = opened.read
        readCatalog = opened.catalog
        try attachSync()
    }

    /// A frozen copy of `source` at the version it reads now.
    init(freezing source: Database) throws {
        configuration = source.configuration
        isFrozen = true
        confinement = .free()
        frozenLock = NSLock()
        store = source.store
        schema = source.schema
        autorefresh = false
        let transaction = try source.currentReadTransaction()
        readTransaction = transaction
        readCatalog = try Catalog(reader: transaction)
    }

    // MARK: - The version this database reads

    /// The catalog the database reads and writes now: the write transaction's, or the pinned version's.
    func catalog() throws -> Catalog {
        if let writeCatalog { return writeCatalog }
        if let readCatalog { return readCatalog }
        let transaction = try store.beginRead()
        readTransaction = transaction
        let catalog = try Catalog(reader: transaction)
        readCatalog = catalog
        return catalog
    }

    private func currentReadTransaction() throws -> ReadTransaction {
        _ = try catalog()
        guard let readTransaction else {
            throw StrataError.transactionMisuse("freeze() inside a write transaction: commit or cancel the write first")
        }
        return readTransaction
    }

    /// The table of `model` in the current catalog. Its usual case (the table found before, in the write's catalog)
    /// is inlined into `add`'s path and property access.
    @inline(__always)
    func table(for model: ModelBinding) throws -> Table {
        if let table = keptTable(for: model, in: writeCatalog) { return table }
        return try lookUpTable(for: model)
    }

    /// ``table(for:)`` when the table is not at hand: found in the current catalog, and kept for the next call.
    private func lookUpTable(for model: ModelBinding) throws -> Table {
        let catalog = try catalog()
        if let table = keptTable(for: model, in: catalog) { return table }
        guard let table = catalog.table(model.tableKey) else {
            throw StrataError.schemaMismatch(path: store.path, detail: "the table of \(model.name) is missing")
        }
        if catalog !== tablesCatalog {
            tablesCatalog = catalog
            tables = Array(repeating: nil, count: schema.models.count)
        }
        if model.index < tables.count { tables[model.index] = table }
        return table
    }

    /// The table of `model` kept from an earlier lookup, when `catalog` is the one it was looked up in.
    @inline(__always)
    private func keptTable(for model: ModelBinding, in catalog: Catalog?) -> Table? {
        guard let catalog, catalog === tablesCatalog, model.index < tables.count, let table = tables[model.index],
            table.key == model.tableKey
        else { return nil }
        return table
    }

    /// Lets go of the tables looked up in the catalog the database is letting go of.
    func forgetTables() {
        tablesCatalog = nil
        tables = []
    }

    /// Moves to the newest committed version when ``autorefresh`` is on.
    func autorefreshIfNeeded() {
        guard autorefresh, writeTransaction == nil, let readTransaction, readTransaction.isBehindLatestCommit
        else { return }
        releaseReadVersion()
    }

    /// Moves to the newest committed version: results and objects show what other threads and processes
    /// committed since.
    ///
    /// - Returns: Whether there was anything new.
    @discardableResult
    public func refresh() -> Bool {
        confinement.check("Database.refresh()")
        guard writeTransaction == nil, !isFrozen else { return false }
        let changed = readTransaction.map { store.latestCommittedVersion != $0.version } ?? true
        releaseReadVersion()
        return changed
    }

    /// Lets go of the version the database reads, so that the file's space it pins can be reused; the next
    /// access reads the newest version. Objects and results stay usable. Inside a write, does nothing.
    public func invalidate() {
        confinement.check("Database.invalidate()")
        guard writeTransaction == nil, !isFrozen else { return }
        releaseReadVersion()
    }

    func releaseReadVersion() {
        readCatalog = nil
        readTransaction = nil  // ends when the last holder (a frozen copy may share it) lets go
        forgetTables()
        noteChange()
    }

    /// Records that what the database shows may have changed.
    func noteChange() { changeStamp &+= 1 }

    /// The version the database reads (its write transaction's while writing).
    public var version: UInt64 {
        writeTransaction?.version ?? readTransaction?.version ?? store.latestCommittedVersion
    }

    /// Runs `body` under the frozen lock (frozen databases are shared between threads), after the thread check.
    func withAccess<R>(_ what: @autoclosure () -> String, _ body: () throws -> R) rethrows -> R {
        confinement.check(what())
        guard let frozenLock else { return try body() }
        frozenLock.lock()
        defer { frozenLock.unlock() }
        return try body()
    }

    /// Stops the program on a failure a non-throwing accessor cannot report (a damaged file found while reading a
    /// property, counting or iterating results), naming the file, what was read and the command that shows the
    /// damage. `fatalError`, whose message release builds keep (a `precondition`'s they drop).
    func fatal(_ error: Error, while what: String) -> Never {
        fatalError(Self.fatalMessage(error, while: what, path: store.path))
    }

    /// The message ``fatal(_:while:)`` stops with.
    static func fatalMessage(_ error: Error, while what: String, path: String) -> String {
        let named = (error as? StrataError)?.inFile(path) ?? error
        let advice = isDamage(named)
            ? "The file is damaged: run `strata verify \(path)` to see where"
            : "Run `strata verify \(path)` to check the file"
        return "Strata: \(what) in '\(path)' failed: \(named). \(advice). This call cannot throw; the throwing reads "
            + "(`try results.fetch()`, `fetchCount()`, `fetchSum(ofProperty:)`, `try db.verify()`) report it as a "
            + "StrataError instead (see docs/API.md)"
    }

    /// Runs a storage read, naming this database's file in the damage it throws (the table layer does not know
    /// which file its nodes come from).
    func storageRead<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as StrataError {
            throw error.inFile(store.path)
        }
    }

    /// `error` naming this database's file if it is damage that named none (see ``storageRead(_:)``).
    func namingFile(_ error: Error) -> Error {
        (error as? StrataError)?.inFile(store.path) ?? error
    }

    /// Whether `error` is damage the store found in the file (not a misuse or a missing object).
    static func isDamage(_ error: Error) -> Bool {
        if case .corruptFile? = error as? StrataError { return true }
        return false
    }
}

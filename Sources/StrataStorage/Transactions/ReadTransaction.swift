/// A consistent view of one committed version: its nodes never change while the transaction is open, whatever
/// writers do meanwhile. Ends on `end()` or when released.
///
/// Several threads may read through one transaction at once; ending it while another thread still reads is a
/// misuse (the buffers handed out become invalid once the store closes).
public final class ReadTransaction: NodeReader, @unchecked Sendable {
    /// The version this transaction sees.
    public let version: UInt64
    /// The table layer's root node of this version.
    package let root: NodeRef

    let store: Store
    let meta: MetaSlot
    /// The version and commit-log generation this transaction pins.
    let pin: ReaderPin
    /// The commit log's pages of the pinned version (nil when the store has no log, or the version is all in the
    /// data file).
    let log: LogView?
    /// Keeps the clear copies of the encrypted nodes this transaction read (nil when the store is not encrypted).
    let lease: NodeLease?
    /// The lock file's word holding the newest committed version, mapped as long as this transaction is open.
    private let latestVersionWord: SharedWord
    private let endLock = ThreadLock()
    private var isEnded = false

    init(store: Store, meta: MetaSlot, pin: ReaderPin, log: LogView?) {
        self.store = store
        self.log = log
        self.meta = meta
        self.pin = pin
        self.version = meta.version
        self.root = meta.root
        lease = store.pagedFile.makeLease()
        latestVersionWord = store.lockFile.latestVersionWord
    }

    deinit { end() }

    /// The verified payload of node `ref`, in place in the file's mapping (for an encrypted store, a clear copy):
    /// valid until the transaction ends.
    ///
    /// - Throws: `corruptFile` when the node lies outside this version or fails its checksum;
    ///   `transactionMisuse` after `end()`.
    package func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        guard !isEnded else { throw StrataError.transactionMisuse("read of node \(ref) after the read transaction ended") }
        return try store.pagedFile.payload(
            of: ref, kind: .table, pageCount: meta.pageCount, version: meta.version, lease: lease, log: log)
    }

    /// Whether a version newer than this one has been committed since it began. While the transaction is open
    /// the store's files stay mapped, so this is one load of the lock file's shared word (its address kept from
    /// the start), without the store's lock that `Store.latestCommittedVersion` takes; after `end()` it asks the
    /// store.
    package var isBehindLatestCommit: Bool {
        guard !isEnded else { return store.latestCommittedVersion != version }
        return latestVersionWord.load() != version
    }

    /// The store's catalog cache (`Store.catalogCache`), so `Catalog` skips decoding a catalog this process just
    /// wrote or read.
    package var catalogCache: CatalogCache? { store.catalogCache }

    /// Ends the transaction, unpinning its version. Ending twice does nothing.
    public func end() {
        let wasOpen = endLock.withLock { () -> Bool in
            defer { isEnded = true }
            return !isEnded
        }
        if wasOpen { store.endRead(pin: pin) }
    }
}

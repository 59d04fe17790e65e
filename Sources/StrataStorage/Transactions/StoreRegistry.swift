/// The stores open in this process, by path (or in-memory identifier), so opening a file twice shares one store:
/// `fcntl` locks belong to the process and closing any descriptor of the lock file would drop them all.
final class StoreRegistry: @unchecked Sendable {
    static let shared = StoreRegistry()

    private final class WeakStore {
        weak var store: Store?
        init(_ store: Store) { self.store = store }
    }

    private let lock = ThreadLock()
    private var stores: [String: WeakStore] = [:]

    /// The open store for `key`, or a new one from `make`.
    ///
    /// - Throws: `invalidArgument` when the open store's read-only setting differs; `wrongEncryptionKey` when its
    ///   encryption key differs from `encryptionKey`; what `make` throws.
    func store(key: String, readOnly: Bool, encryptionKey: [UInt8]?, make: () throws -> Store) throws -> Store {
        try lock.withLock {
            if let existing = stores[key]?.store, existing.stateLock.withLock({ existing.isClosed && !existing.resourcesReleased }) {
                // Its lock file is still open: a second one would share (and on close drop) this process's locks.
                throw StrataError.transactionMisuse(
                    "'\(existing.path)' was closed while transactions were still open; end them before reopening it")
            }
            if let existing = stores[key]?.store, !existing.stateLock.withLock({ existing.isClosed }) {
                guard existing.options.readOnly == readOnly else {
                    throw StrataError.invalidArgument(
                        "'\(existing.path)' is already open \(existing.options.readOnly ? "read-only" : "read-write") "
                            + "in this process; close it before opening it \(readOnly ? "read-only" : "read-write")")
                }
                if existing.options.encryptionKey != encryptionKey {
                    throw EncryptionHeader.keyMismatch(
                        fileIsEncrypted: existing.isEncrypted, keyGiven: encryptionKey != nil, path: existing.path)
                }
                return existing
            }
            let store = try make()
            stores[key] = WeakStore(store)
            return store
        }
    }

    /// Runs `body` while no store for `key` is open in this process and none can be opened (the registry stays
    /// locked until `body` returns).
    ///
    /// - Throws: `io` (`EBUSY`) when a store for `key` is open here, or closed with transactions still open;
    ///   what `body` throws.
    func withoutOpenStore<R>(key: String, path: String, _ body: () throws -> R) throws -> R {
        try lock.withLock {
            if let existing = stores[key]?.store, !existing.stateLock.withLock({ existing.resourcesReleased }) {
                throw Store.inUse(path, by: "this process")
            }
            return try body()
        }
    }
}

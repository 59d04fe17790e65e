/// A consistent view of one committed version: its nodes never change while the transaction is open, whatever
/// writers do meanwhile. Ends on `end()` or when released. Use it from one thread at a time.
public final class ReadTransaction: NodeReader {
    /// The version this transaction sees.
    public let version: UInt64
    /// The table layer's root node of this version.
    public let root: NodeRef

    let store: Store
    let meta: MetaSlot
    private var isEnded = false

    init(store: Store, meta: MetaSlot) {
        self.store = store
        self.meta = meta
        self.version = meta.version
        self.root = meta.root
    }

    deinit { end() }

    /// The verified payload of node `ref`, in place in the file's mapping: valid until the transaction ends.
    ///
    /// - Throws: `corruptFile` when the node lies outside this version or fails its checksum;
    ///   `transactionMisuse` after `end()`.
    public func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        guard !isEnded else { throw StrataError.transactionMisuse("read of node \(ref) after the read transaction ended") }
        return try store.pagedFile.payload(of: ref, kind: .table, pageCount: meta.pageCount)
    }

    /// Ends the transaction, unpinning its version. Ending twice does nothing.
    public func end() {
        guard !isEnded else { return }
        isEnded = true
        store.endRead(version: version)
    }
}

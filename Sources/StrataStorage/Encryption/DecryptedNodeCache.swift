/// Clear copies of recently read encrypted nodes, shared by every transaction of the process.
///
/// Encrypted nodes cannot be read in place in the file's mapping, so the first read of a node checks its code and
/// decrypts it here; later reads of the same node (same page, same version) take the copy. The cache keeps about
/// `budget` bytes and forgets the oldest entries past that; a forgotten entry stays alive while a lease holds it.
/// A committed node never changes while a version that reaches it is pinned, so a copy keyed by page and version
/// is never stale.
final class DecryptedNodeCache: @unchecked Sendable {
    let cipher: NodeCipher
    let budget: Int

    private let lock = ThreadLock()
    private var entries: [UInt64: DecryptedNode] = [:]
    /// Nodes (page and version) in the order they entered, oldest first from `orderStart`; a place whose entry was
    /// replaced since is skipped.
    private var order: [(page: UInt64, version: UInt64)] = []
    private var orderStart = 0
    private var bytes = 0
    private var decryptions = 0

    /// How many nodes this cache has decrypted so far (tests check that a node is decrypted once per transaction
    /// at most, and not at all after this process committed it).
    var decryptionCount: Int { lock.withLock { decryptions } }

    init(cipher: NodeCipher, budget: Int) {
        self.cipher = cipher
        self.budget = budget
    }

    /// The clear payload of the node at `start` (on `page`, written by `version`, `length` payload bytes), held by
    /// `lease`; nil when its code does not authenticate it.
    func payload(
        page: UInt64, version: UInt64, length: Int, start: UnsafeRawPointer, lease: NodeLease
    ) -> UnsafeRawBufferPointer? {
        if let held = lease.node(page: page, version: version) { return held.payload(length: length) }
        if let cached = lock.withLock({ entries[page] }), cached.version == version {
            lease.hold(cached)
            return cached.payload(length: length)
        }
        // Decrypt outside the lock: other threads keep reading meanwhile.
        let node = DecryptedNode(page: page, version: version, length: length)
        guard let base = node.bytes.baseAddress, cipher.open(node: start, length: length, page: page, into: base) else {
            return nil
        }
        lock.withLock {
            decryptions += 1
            insert(node, length: length)
        }
        lease.hold(node)
        return node.payload(length: length)
    }

    /// Adds the clear payload of a node this process just committed (`length` bytes at `payload`), so that the
    /// next transaction reading it copies it instead of decrypting what it was just encrypted from.
    func insert(page: UInt64, version: UInt64, payload: UnsafeRawPointer, length: Int) {
        let node = DecryptedNode(page: page, version: version, length: length)
        if let base = node.bytes.baseAddress { base.copyMemory(from: payload, byteCount: length) }
        lock.withLock { insert(node, length: length) }
    }

    /// Adds `node`, then forgets the oldest entries while over budget. Call with `lock` held.
    private func insert(_ node: DecryptedNode, length: Int) {
        if let previous = entries.updateValue(node, forKey: node.page) { bytes -= previous.bytes.count }
        bytes += node.bytes.count
        order.append((node.page, node.version))
        while bytes > budget, orderStart < order.count {
            let (page, version) = order[orderStart]
            orderStart += 1
            guard let entry = entries[page], entry.version == version else { continue }
            entries.removeValue(forKey: page)
            bytes -= entry.bytes.count
        }
        if orderStart > 1024, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }
}

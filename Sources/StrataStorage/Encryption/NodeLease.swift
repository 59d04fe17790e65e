/// The decrypted nodes one transaction (or one short read, such as recovery's) has been handed: holding them keeps
/// their memory alive until the lease goes, whatever the cache evicts meanwhile. That is how an encrypted store
/// keeps `NodeReader`'s promise that a buffer from `read` stays valid until the transaction ends.
///
/// Safe to use from several threads (a read transaction may be read from several at once).
final class NodeLease: @unchecked Sendable {
    private let lock = ThreadLock()
    private var held: [UInt64: DecryptedNode] = [:]
    /// Nodes displaced from `held` by another node of the same page (only a damaged reference can do that), kept
    /// because their buffers may still be in use.
    private var displaced: [DecryptedNode] = []

    /// The node of `page` written by `version` that the lease holds, if any: a transaction reading a node again
    /// takes the copy it already has, whatever the cache has forgotten since.
    func node(page: UInt64, version: UInt64) -> DecryptedNode? {
        lock.withLock {
            guard let node = held[page], node.version == version else { return nil }
            return node
        }
    }

    /// Keeps `node` alive for as long as the lease.
    func hold(_ node: DecryptedNode) {
        lock.withLock {
            if let previous = held.updateValue(node, forKey: node.page), previous !== node { displaced.append(previous) }
        }
    }
}

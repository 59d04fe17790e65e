/// A write's nodes sealed for the disk: each one's header and checksum set, and for an encrypted store its
/// payload encrypted into an image of its own (the node's memory keeps the clear bytes, which the transaction
/// may still read). Owns those images until it goes.
final class SealedNodes {
    /// One node's bytes as they go to disk.
    struct Node {
        let page: UInt64
        /// Header, then payload (or ciphertext and seal).
        let bytes: UnsafeRawPointer
        /// Bytes of `bytes` that matter; the rest of its pages is never read.
        let byteCount: Int
        let pages: UInt64
    }

    private(set) var nodes: [Node] = []
    /// The table nodes encrypted here, with their clear bytes (node memory: valid until the transaction ends).
    private(set) var encryptedTableNodes: [(page: UInt64, memory: UnsafeRawPointer, length: Int)] = []
    private var images: [UnsafeMutableRawPointer] = []
    private let cipher: NodeCipher?
    /// Whether headers record their node's page (a file of format 3; see `PagedFile.bindsNodes`).
    private let bindsNodes: Bool

    init(cipher: NodeCipher?, bindsNodes: Bool, capacity: Int = 0) {
        self.cipher = cipher
        self.bindsNodes = bindsNodes
        nodes.reserveCapacity(capacity)
    }

    deinit {
        for image in images { image.deallocate() }
    }

    /// Seals `node`, which goes to `page` as part of `version`, and returns its checksum (what the commit record
    /// lists). The header records `page` when the file binds its nodes, so the checksum (and an encrypted node's
    /// code) covers where the node belongs.
    func seal(_ node: DirtyNode, page: UInt64, version: UInt64) -> UInt64 {
        let header = NodeHeader(kind: node.kind, length: UInt32(node.length), version: version, page: bindsNodes ? page : 0)
        header.encodeFields(into: node.memory)
        guard let cipher else {
            let checksum = NodeHeader.seal(node.memory, length: node.length)
            nodes.append(Node(page: page, bytes: node.memory, byteCount: NodeHeader.byteCount + node.length, pages: node.pages))
            return checksum
        }
        let byteCount = NodeHeader.byteCount + node.length + NodeCipher.sealByteCount
        let image = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        images.append(image)
        let checksum = cipher.seal(node: node.memory, length: node.length, page: page, into: image)
        nodes.append(Node(page: page, bytes: image, byteCount: byteCount, pages: node.pages))
        if node.kind == .table { encryptedTableNodes.append((page, UnsafeRawPointer(node.memory), node.length)) }
        return checksum
    }

    /// The nodes in page order (what `Store.writeNodes` joins into runs).
    func sortedByPage() -> [Node] {
        nodes.sorted { $0.page < $1.page }
    }
}

/// The clear payload of one encrypted node, as one version wrote it to one page. Freed when neither the cache
/// nor any transaction that read it holds it any more.
final class DecryptedNode: @unchecked Sendable {
    let page: UInt64
    /// The version in the node's header: a node written later on the same page is another `DecryptedNode`.
    let version: UInt64
    let bytes: UnsafeMutableRawBufferPointer

    init(page: UInt64, version: UInt64, length: Int) {
        self.page = page
        self.version = version
        bytes = .allocate(byteCount: max(length, 1), alignment: 16)
    }

    deinit { bytes.deallocate() }

    /// The payload (exactly the node's length, which may be 0).
    func payload(length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[0..<length])
    }
}

/// The 32 bytes in front of every node's payload, on the node's first page.
///
/// ```
/// 0  checksum  UInt64  xxHash64 of bytes 8 ..< 32 + length (header fields and payload)
/// 8  magic     UInt8   0xA7
/// 9  kind      UInt8   NodeKind
/// 10 reserved  UInt16  0
/// 12 length    UInt32  payload bytes
/// 16 version   UInt64  the version that wrote the node
/// 24 page      UInt64  the node's own first page (files of format 3); 0 in files of formats 1 and 2
/// ```
///
/// Covering the version means a stale node left on a reused page never passes for the node a version expects;
/// covering the page means a node moved, swapped or copied onto another page never passes for the node that page
/// should hold (see `PagedFile.header(of:pageCount:version:)`).
struct NodeHeader: Equatable, Sendable {
    static let byteCount = 32
    static let magic: UInt8 = 0xA7

    var kind: NodeKind
    var length: UInt32
    var version: UInt64
    /// The page the node was written to, or 0 for a node of a file whose nodes are not bound (formats 1 and 2).
    var page: UInt64

    /// Pages a node with `length` payload bytes spans.
    static func pageSpan(length: Int, pageSize: Int) -> UInt64 {
        UInt64((byteCount + length + pageSize - 1) / pageSize)
    }

    /// Writes the header fields (not the checksum) at `base`.
    func encodeFields(into base: UnsafeMutableRawPointer) {
        base.setU8(Self.magic, at: 8)
        base.setU8(kind.rawValue, at: 9)
        base.storeBytes(of: 0, toByteOffset: 10, as: UInt16.self)
        base.setU32(length, at: 12)
        base.setU64(version, at: 16)
        base.setU64(page, at: 24)
    }

    /// Computes and stores the checksum of a node whose header fields and payload are in place; returns it.
    static func seal(_ base: UnsafeMutableRawPointer, length: Int) -> UInt64 {
        let checksum = Checksum.hash(UnsafeRawPointer(base) + 8, count: byteCount - 8 + length)
        base.setU64(checksum, at: 0)
        return checksum
    }

    /// The header at `base`, or nil when its magic or kind is wrong.
    static func decode(from base: UnsafeRawPointer) -> NodeHeader? {
        guard base.u8(at: 8) == magic, let kind = NodeKind(rawValue: base.u8(at: 9)) else { return nil }
        return NodeHeader(kind: kind, length: base.u32(at: 12), version: base.u64(at: 16), page: base.u64(at: 24))
    }
}

/// Who a node belongs to.
enum NodeKind: UInt8, Sendable {
    /// A node of the table layer.
    case table = 1
    /// The free list.
    case freeList = 2
    /// A commit record.
    case commitRecord = 3
    /// Changes to a full free list (`FreeListChanges`).
    case freeListChanges = 4
}

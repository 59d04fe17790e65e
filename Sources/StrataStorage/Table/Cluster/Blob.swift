/// A variable-size value while a cluster is being changed: its bytes, a string, or the node already holding it.
///
/// A string value stays the caller's `String` until the cluster is encoded: a short string lives inside the
/// `String` value itself, so a bulk insert of short text allocates nothing per value (a byte array per value
/// showed in insert profiles), and the encoder copies its UTF-8 straight into the node.
///
/// One of three forms rather than a field for each: a decoded cluster keeps a blob per row of each such column,
/// and a write transaction keeps dozens of decoded clusters, so the blob's size is most of their memory.
struct Blob: Equatable {
    private enum Content {
        case bytes([UInt8])
        case text(String)
        case external(NodeRef, length: Int)
    }

    private var content: Content

    init(_ bytes: [UInt8]) { content = .bytes(bytes) }

    /// A string value (its UTF-8 is what the cluster stores).
    init(text: String) { content = .text(text) }

    init(external: NodeRef, length: Int) { content = .external(external, length: length) }

    static let empty = Blob([])

    /// The node holding a long value, `.none` when the bytes are here.
    var external: NodeRef {
        if case .external(let ref, _) = content { return ref }
        return .none
    }

    /// Whether the value lives in a node of its own (``external`` is set), asked without copying the value.
    @inline(__always)
    var isExternal: Bool {
        if case .external = content { return true }
        return false
    }

    /// The value's length in bytes.
    var length: Int {
        switch content {
        case .bytes(let bytes): return bytes.count
        case .text(let text): return text.utf8.count
        case .external(_, let length): return length
        }
    }

    /// The bytes the value takes in a variable-size block's byte area: its own, or 16 for a long value's node
    /// reference and length.
    var areaByteCount: Int64 { external.isNone ? Int64(length) : 16 }

    /// The bytes held here (empty when `external` is set); a copy for a string.
    var bytes: [UInt8] {
        switch content {
        case .bytes(let bytes): return bytes
        case .text(let text): return Array(text.utf8)
        case .external: return []
        }
    }

    /// Runs `body` on the bytes held here without copying them.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch content {
        case .bytes(let bytes): return try bytes.withUnsafeBytes(body)
        case .text(var text): return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        case .external: return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// Equal when they hold the same bytes or the same node, however the bytes were given.
    static func == (lhs: Blob, rhs: Blob) -> Bool {
        guard lhs.external == rhs.external, lhs.length == rhs.length else { return false }
        return lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }
}

/// A variable-size value while a cluster is being changed: its bytes, a string, or the node already holding it.
///
/// A string value stays the caller's `String` until the cluster is encoded: a short string lives inside the
/// `String` value itself, so a bulk insert of short text allocates nothing per value (a byte array per value
/// showed in insert profiles), and the encoder copies its UTF-8 straight into the node.
struct Blob: Equatable {
    /// The bytes, when the value came as bytes (empty for a string or a value in its own node).
    private var storage: [UInt8]
    /// The value, when it came as a string.
    private var text: String?
    /// The node holding a long value, `.none` when the bytes are here.
    var external: NodeRef = .none
    /// The value's length in bytes.
    var length: Int

    init(_ bytes: [UInt8]) {
        storage = bytes
        length = bytes.count
    }

    /// A string value (its UTF-8 is what the cluster stores).
    init(text: String) {
        storage = []
        self.text = text
        length = text.utf8.count
    }

    init(external: NodeRef, length: Int) {
        storage = []
        self.external = external
        self.length = length
    }

    static let empty = Blob([])

    /// The bytes held here (empty when `external` is set); a copy for a string.
    var bytes: [UInt8] {
        if let text { return Array(text.utf8) }
        return storage
    }

    /// Runs `body` on the bytes held here without copying them.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if var text { return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) } }
        return try storage.withUnsafeBytes(body)
    }

    /// Equal when they hold the same bytes or the same node, however the bytes were given.
    static func == (lhs: Blob, rhs: Blob) -> Bool {
        guard lhs.external == rhs.external, lhs.length == rhs.length else { return false }
        return lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }
}

/// The columns a table's clusters are decoded with; shared by reference so adding a column reaches every
/// cluster decoded later in the transaction.
final class ClusterContext {
    var specs: [ColumnSpec] { didSet { cache() } }
    /// The column keys in storage order (a small array a lookup scans without copying specs).
    private(set) var keys: [ColumnKey] = []
    /// Each column's block kind, in storage order.
    private(set) var blockKinds: [BlockEncoding] = []
    /// Positions of link, list-of-links and mixed columns (the ones with backlinks to keep).
    private(set) var linkPositions: [Int] = []
    /// The row a new object starts from: each column's default (backlinks empty), built once, not per insert.
    private(set) var defaultRow: [StorageValue] = []
    /// For each column, what an insert checks its value against without copying the column's spec: for a column
    /// of single values its kind and whether it takes `.null`; for a list or set, the same for each element
    /// (`elements`); `nil` for maps and backlinks.
    private(set) var valueChecks: [(kind: ValueKind, nullable: Bool, elements: Bool)?] = []

    init(specs: [ColumnSpec]) {
        self.specs = specs
        cache()
    }

    private func cache() {
        keys = specs.map(\.key)
        blockKinds = specs.map(\.blockEncoding)
        linkPositions = specs.indices.filter { specs[$0].type.mayLink }
        defaultRow = specs.map { $0.type == .backlinks ? .null : $0.defaultValue }
        valueChecks = specs.map { spec in
            switch spec.type {
            case .value(let kind): return (kind, spec.isNullable, false)
            case .list(let kind), .set(let kind): return (kind, spec.elementsNullable && kind != .link, true)
            case .backlinks, .map: return nil
            }
        }
    }
}

extension ClusterBuffer: TreeLeaf {
    /// Clusters are keyed by object keys.
    static var keysAreObjectKeys: Bool { true }

    static func load(_ raw: UnsafeRawBufferPointer, ref: NodeRef, context: ClusterContext) throws -> Self {
        try Self(view: try ClusterView(raw, ref: ref), specs: context.specs)
    }

    static func empty(context: ClusterContext) -> Self {
        Self(keys: [], columns: context.specs.map { ColumnBuffer(spec: $0) })
    }

    var entryCount: Int { keys.count }

    var firstKey: [UInt8] { keys.first.map(ByteOrder.key) ?? [] }

    /// Whether both clusters fit one node. The sum of both sizes counts the node's header and each block's frame
    /// twice, which leaves room for the joined keys or values to need a wider packing; should it not, the merged
    /// cluster splits on its next change.
    func canAbsorb(_ other: ClusterBuffer) -> Bool {
        keys.count + other.keys.count <= ClusterBuffer.maxRows
            && encodedByteCount + other.encodedByteCount <= ClusterBuffer.maxEncodedBytes
    }
}

/// A set column of one cluster, read in place: each object's encoded set (docs/FILE-FORMAT.md, "Column block") is
/// searched where it lies, without decoding its elements.
public struct SetColumnView {
    /// The number of rows.
    public let count: Int
    let values: StringColumnView
    let kind: ValueKind

    init(_ block: ColumnBlock, reader: NodeReader, kind: ValueKind) {
        count = block.count
        values = StringColumnView(block, reader: reader)
        self.kind = kind
    }

    /// Rows among `within` whose set holds `probe`'s element: a binary search of each encoded set over its
    /// offsets, comparing stored bytes (a probe of another kind than the column's is decoded and compared as
    /// `Table.setContains` does).
    /// - Throws: `StrataError.corruptFile` when a stored set does not fit its bytes.
    public func rows(containing probe: SetProbe, within: RowMask) throws -> RowMask {
        var mask = RowMask(count: within.count)
        if probe.kind == kind {
            try values.forEachValue(within: within) { row, raw in
                if try CollectionCodec.setContains(raw, probe: probe) { mask.set(row) }
            }
        } else {
            try values.forEachValue(within: within) { row, raw in
                if try CollectionCodec.setContains(raw, probe.element, kind: kind) { mask.set(row) }
            }
        }
        return mask
    }
}

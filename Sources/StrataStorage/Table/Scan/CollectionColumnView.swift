/// A list, set or map column of one cluster, read in place for each object's element count: every encoded
/// collection starts with its `u32` count, or is empty (docs/FILE-FORMAT.md, "Row contents of variable blocks"), so
/// `collection.@count` needs four bytes per object and no element decoded.
public struct CollectionColumnView {
    /// The number of rows.
    public let count: Int
    let values: StringColumnView

    init(_ block: ColumnBlock, reader: NodeReader) {
        count = block.count
        values = StringColumnView(block, reader: reader)
    }

    /// Rows among `within` whose collection's element count satisfies `count <comparison> operand` (a null row, which
    /// a collection column does not write, counts as empty).
    /// - Throws: `StrataError.corruptFile` when a stored collection does not fit its bytes.
    public func rows(countSatisfying comparison: ScanComparison, _ operand: Int64, within: RowMask) throws -> RowMask {
        var mask = RowMask(count: within.count)
        try values.forEachValue(within: within) { row, raw in
            if comparison.holds(Int64(CollectionCodec.count(raw)), operand) { mask.set(row) }
        }
        if comparison.holds(0, operand), values.nulls.hasNulls {
            var nulls = values.nulls.mask
            nulls.formIntersection(within)
            mask.formUnion(nulls)
        }
        return mask
    }
}

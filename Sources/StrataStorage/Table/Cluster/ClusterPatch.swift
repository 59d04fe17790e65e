/// Where one fixed-width value of a stored cluster lives, as the edits that set it: the value's bits and its
/// null bit, for `NodeTree.patch` to make on a copy of the node.
///
/// Covers the block kinds whose rows take a fixed number of bits (packed ints, bits, floats, doubles), so an
/// int, bool, float, double, timestamp or link (or a null, in a column with a null bitmap) changes without
/// decoding the cluster. A packed int must fit the block's frame (base and width); when it does not, or the
/// cluster lacks the row or the column's block, there is no patch and the change takes the general path, which
/// re-encodes the cluster with a new frame.
enum ClusterPatch {
    /// The edits that set `key`'s value in column `column` (directory hint `hint`, block kind `kind`) of the
    /// stored cluster `raw` to `word` (`nil` = null), or `nil` when the change needs the general path.
    ///
    /// - Throws: `StrataError.corruptFile` when the cluster or its block is damaged.
    static func edits(setting key: Int64, column: ColumnKey, hint: Int, kind: BlockEncoding, to word: UInt64?,
                      in raw: UnsafeRawBufferPointer, ref: NodeRef) throws -> NodePatch? {
        guard let start = raw.baseAddress else { return nil }
        let view = try ClusterView(raw, ref: ref)
        guard let row = view.row(of: key), let block = try view.block(column, hint: hint), block.kind == kind else { return nil }
        var patch = NodePatch()
        if let nulls = block.nulls {
            // One bit per row in whole 64-bit words: the row's bit sits in word `row / 64`.
            patch.replace(wordAt: nulls - start + row / 64 * 8, mask: 1 << UInt64(row % 64), with: word == nil ? .max : 0)
        } else if word == nil {
            return nil
        }
        // Nulls store zero bits (a packed int: its base), as the general path leaves a null's word.
        let bits: UInt64
        let width: Int
        switch kind {
        case .packedInt:
            let delta = UInt64(bitPattern: Int64(bitPattern: word ?? UInt64(bitPattern: block.base)) &- block.base)
            guard block.width == 64 || delta >> UInt64(block.width) == 0 else { return nil }
            // Width 0: every row is the base, which this value is too; nothing to write but the null bit.
            if block.width == 0 { return patch }
            (bits, width) = (delta, block.width)
        case .bits: (bits, width) = (word.map { $0 == 0 ? 0 : 1 } ?? 0, 1)
        case .float32: (bits, width) = ((word ?? 0) & 0xFFFF_FFFF, 32)
        case .float64: (bits, width) = (word ?? 0, 64)
        case .fixed16, .variable: return nil
        }
        // Every fixed-width data area is whole 64-bit words (docs/FILE-FORMAT.md), so the row's bits lie in one.
        guard let data = block.data.baseAddress else { return nil }
        let bit = row * width
        let mask: UInt64 = width == 64 ? .max : ((1 << UInt64(width)) - 1) << UInt64(bit % 64)
        patch.replace(wordAt: data - start + bit / 64 * 8, mask: mask, with: bits << UInt64(bit % 64))
        return patch
    }
}

/// A change to a stored node that leaves its size and layout as they are: a few bit fields rewritten inside
/// little-endian 64-bit words of the payload.
///
/// A one-value commit used to decode its cluster into arrays, change one row and encode it all again; what it
/// changes is one value and perhaps one null bit. `NodeTree.patch` copies the node's bytes instead and applies
/// such a patch to the copy (or to the node itself when this transaction wrote it); the branches above and the
/// catalog (`Catalog.flush`) get the same treatment for the one reference each that moved.
struct NodePatch {
    /// One rewritten field: the bits of `mask` in the word at byte `offset` become those of `bits`.
    struct Edit {
        var offset: Int
        var mask: UInt64
        var bits: UInt64
    }

    private(set) var edits: [Edit] = []

    /// Rewrites the bits of `mask` in the 64-bit little-endian word at byte `offset` with those of `bits`.
    mutating func replace(wordAt offset: Int, mask: UInt64, with bits: UInt64) {
        edits.append(Edit(offset: offset, mask: mask, bits: bits & mask))
    }

    /// Whether every edit lies inside a payload of `byteCount` bytes.
    func fits(byteCount: Int) -> Bool {
        edits.allSatisfy { $0.offset >= 0 && $0.offset + 8 <= byteCount }
    }

    /// Applies the edits to node `ref`: where it is when this transaction wrote it and may still write it
    /// (returns `nil`: references to it stay right), else to a copy in a new node of the same size, freeing `ref`
    /// (returns the copy, for the parent to point at), placed as `placement` says.
    ///
    /// - Throws: `StrataError.invalidArgument` when an edit lies outside the node; what reading or allocating
    ///   throws.
    func apply(to ref: NodeRef, in writer: NodeWriter, placement: NodePlacement = .anywhere) throws -> NodeRef? {
        if let payload = writer.writableIfDirty(ref) {
            guard fits(byteCount: payload.count) else { throw outside(ref, payload.count) }
            apply(to: payload)
            return nil
        }
        let original = try writer.read(ref)
        guard fits(byteCount: original.count) else { throw outside(ref, original.count) }
        // `allocate` may spill nodes to the file, but a buffer from `read` stays readable: copy, then free.
        let (copy, payload) = try writer.allocate(copying: original, placement: placement)
        apply(to: payload)
        writer.free(ref)
        return copy
    }

    private func outside(_ ref: NodeRef, _ byteCount: Int) -> StrataError {
        .invalidArgument("a patch of node \(ref) reaches past its \(byteCount) bytes; this is a bug in Strata, please report it")
    }

    /// Applies the edits to `payload`, which `fits(byteCount:)` accepted.
    func apply(to payload: UnsafeMutableRawBufferPointer) {
        for edit in edits {
            let old = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: edit.offset, as: UInt64.self))
            payload.storeBytes(of: ((old & ~edit.mask) | edit.bits).littleEndian, toByteOffset: edit.offset, as: UInt64.self)
        }
    }
}

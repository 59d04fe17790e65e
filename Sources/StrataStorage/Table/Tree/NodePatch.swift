/// A change to a stored node that leaves its size and layout as they are: a few bit fields rewritten inside
/// little-endian 64-bit words of the payload.
///
/// A one-value commit used to decode its cluster into arrays, change one row and encode it all again; what it
/// changes is one value and perhaps one null bit. `NodeTree.patch` copies the node's bytes instead and applies
/// such a patch to the copy (or to the node itself when this transaction wrote it).
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

    /// Applies the edits to `payload`, which `fits(byteCount:)` accepted.
    func apply(to payload: UnsafeMutableRawBufferPointer) {
        for edit in edits {
            let old = UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: edit.offset, as: UInt64.self))
            payload.storeBytes(of: ((old & ~edit.mask) | edit.bits).littleEndian, toByteOffset: edit.offset, as: UInt64.self)
        }
    }
}

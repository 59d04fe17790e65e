/// Changing one stored leaf without decoding it: copy-on-write at the byte level.
extension NodeTree where Leaf: TreeLeaf, Leaf.Context == Context {
    /// Changes the stored leaf whose key range holds `key` by `patch`, without decoding the leaf or the branches
    /// above it. Returns `false`, having changed nothing, when part of the tree is decoded for change (the
    /// general path owns it then), the tree is empty, or `patch` returns `nil` for the leaf (the change needs the
    /// general path: a value that does not fit, a missing row).
    ///
    /// A leaf written by this transaction is patched where it is; a committed one is copied to a new node of the
    /// same size, patched there, and freed. The branch above then needs only its child reference changed: the
    /// same copy-or-patch goes up the path and stops at the first branch this transaction wrote. Entry counts and
    /// separator keys stay as they are, since the leaf keeps its entries.
    ///
    /// - Parameter patch: given the leaf's payload and reference, the edits to make (checked to lie inside it).
    /// - Throws: `StrataError.corruptFile` for a damaged branch; what `patch` or allocation throws.
    func patch(_ key: UnsafeRawBufferPointer, in writer: NodeWriter,
               _ patch: (UnsafeRawBufferPointer, NodeRef) throws -> NodePatch?) throws -> Bool {
        guard !isLoaded, !storedRoot.isNone else { return false }
        // The branches on the way down: each one's reference and the entry taken.
        var path: [(ref: NodeRef, index: Int)] = []
        var ref = storedRoot
        var level = 33
        while true {
            let view = try BranchView(try reader.read(ref), ref: ref)
            guard view.level < level else { throw NodeDamage.error(ref, what, "tree levels do not descend") }
            guard path.isEmpty || view.level == level - 1 else { throw NodeDamage.error(ref, what, "tree levels skip a level") }
            level = view.level
            let index = try view.childIndex(for: key)
            path.append((ref, index))
            ref = try view.child(index)
            if level == 1 { break }
        }
        let leaf = try reader.read(ref)
        guard let edits = try patch(leaf, ref), edits.fits(byteCount: leaf.count) else { return false }
        guard var child = try edits.apply(to: ref, in: writer) else { return true }
        for (depth, (branch, index)) in path.enumerated().reversed() {
            var pointer = NodePatch()
            pointer.replace(wordAt: BranchView.childOffset(index), mask: .max, with: child.rawValue)
            // The root is rewritten by every commit that changes the tree: it goes beside the commit's own nodes.
            let placement: NodePlacement = depth == 0 ? .withCommitNodes : .anywhere
            guard let copy = try pointer.apply(to: branch, in: writer, placement: placement) else { return true }
            child = copy
        }
        storedRoot = child
        return true
    }
}

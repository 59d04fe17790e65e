/// Whole-tree walks over the stored nodes: freeing, visiting, checking the shape.
extension NodeTree where Leaf: TreeLeaf, Leaf.Context == Context {
    /// Frees every node of the tree (the table or index is being removed). `leafNodes` lists the extra nodes a
    /// leaf owns (long values).
    func destroy(in writer: NodeWriter, leafNodes: (UnsafeRawBufferPointer, NodeRef) throws -> [NodeRef]) throws {
        _ = try flush(in: writer)
        // The walk reads each branch's children after visiting the branch: freeing as it goes would free a branch
        // written in this transaction (its memory goes at once) while its children were still to be read.
        var nodes: [(ref: NodeRef, isLeaf: Bool)] = []
        try forEachNode { nodes.append(($0, $1)) }
        for node in nodes {
            if node.isLeaf { for extra in try leafNodes(try reader.read(node.ref), node.ref) { writer.free(extra) } }
            writer.free(node.ref)
        }
        storedRoot = .none
    }

    /// Visits every stored node (branches and leaves) of the tree as it was last flushed or opened.
    func forEachNode(_ body: (NodeRef, _ isLeaf: Bool) throws -> Void) throws {
        guard !storedRoot.isNone else { return }
        func walk(_ ref: NodeRef, _ parentLevel: Int) throws {
            let view = try BranchView(try reader.read(ref), ref: ref)
            guard view.level < parentLevel else { throw NodeDamage.error(ref, what, "tree levels do not descend") }
            try body(ref, false)
            for index in 0..<view.count {
                let child = try view.child(index)
                if view.level == 1 { try body(child, true) } else { try walk(child, view.level) }
            }
        }
        try walk(storedRoot, 33)
    }

    /// Checks the stored tree's shape: levels descend by one, each branch entry's count equals what its subtree
    /// holds, separator keys ascend and bound their child's keys. `leafBounds` gives a stored leaf's entry count
    /// and first and last keys. Returns the number of entries.
    func verifyShape(_ leafBounds: (UnsafeRawBufferPointer, NodeRef) throws -> (count: Int, first: [UInt8], last: [UInt8])) throws -> Int {
        guard !storedRoot.isNone else { return 0 }
        var previousLast: [UInt8]?
        func walk(_ ref: NodeRef, expectedLevel: Int?) throws -> Int {
            let view = try BranchView(try reader.read(ref), ref: ref)
            if let expectedLevel, view.level != expectedLevel {
                throw NodeDamage.error(ref, what, "is at level \(view.level) where level \(expectedLevel) belongs")
            }
            var total = 0
            for index in 0..<view.count {
                let child = try view.child(index)
                let separator = Array(try view.key(index))
                let below: Int
                if view.level == 1 {
                    let bounds = try leafBounds(try reader.read(child), child)
                    guard bounds.count > 0 else { throw NodeDamage.error(child, what, "is an empty leaf") }
                    if index > 0, ByteOrder.compare(separator, bounds.first) > 0 {
                        throw NodeDamage.error(ref, what, "separator \(index) is above its child's first key")
                    }
                    if let previousLast, ByteOrder.compare(previousLast, bounds.first) >= 0 {
                        throw NodeDamage.error(child, what, "keys overlap the previous leaf's")
                    }
                    if let previousLast, index > 0, ByteOrder.compare(previousLast, separator) >= 0 {
                        throw NodeDamage.error(ref, what, "separator \(index) does not follow the previous leaf's keys")
                    }
                    previousLast = bounds.last
                    below = bounds.count
                } else {
                    below = try walk(child, expectedLevel: view.level - 1)
                }
                guard below == view.entriesBelow(index) else {
                    throw NodeDamage.error(ref, what, "child \(index) is counted as \(view.entriesBelow(index)) entries but holds \(below)")
                }
                total += below
            }
            return total
        }
        return try walk(storedRoot, expectedLevel: nil)
    }
}

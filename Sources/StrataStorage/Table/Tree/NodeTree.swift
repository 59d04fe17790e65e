/// A copy-on-write B+tree of leaves keyed by byte strings: the shape both a table's clusters and its indexes take.
///
/// Stored nodes are read in place (`locate`, `forEachLeaf`). During a write transaction, the nodes on the path
/// of a change are decoded into memory (`Branch`, leaves) and changed there; `flush` writes every changed node
/// to new nodes and frees the ones they replace, so a committed node is never written. The root is always a
/// branch, so growing and shrinking the tree only ever changes branches.
///
/// `Leaf` is a `TreeLeaf` and `Context` its `Context` (`ClusterTree`, `IndexTree`), but the class itself asks only
/// that `Leaf` is a class; the operations sit in an extension with the full constraint. Creating a
/// `NodeTree<ClusterBuffer>` the first time in a process made the Swift runtime check `ClusterBuffer: TreeLeaf`,
/// a search of every conformance record of the program: about a fifth of a cold open and count (docs/BENCHMARKS.md,
/// "Cold open: the cluster tree without a run-time conformance check"). A layout requirement is checked without one.
final class NodeTree<Leaf: AnyObject, Context> {
    /// A child of a branch: still in its stored node, or decoded.
    enum Child {
        case stored(NodeRef)
        case leaf(Leaf)
        case branch(Branch)
    }

    /// An internal node decoded for change.
    ///
    /// Its fields, and the tree's own below, skip Swift's run-time exclusivity checks: a tree belongs to one
    /// transaction, used by one thread at a time, and they are never held `inout` across a call that reaches them
    /// again. The whole suite ran with the checks on without a conflict; they were about 8 % of a bulk insert's
    /// CPU through the API (the same measure as for `ColumnBuffer` and `ClusterBuffer`).
    final class Branch {
        @exclusivity(unchecked) var level: Int
        @exclusivity(unchecked) var keys: [BranchKey]
        @exclusivity(unchecked) var children: [Child]
        @exclusivity(unchecked) var counts: [Int]
        @exclusivity(unchecked) var origin: NodeRef
        @exclusivity(unchecked) var isDirty: Bool

        init(level: Int, keys: [BranchKey] = [], children: [Child] = [], counts: [Int] = [], origin: NodeRef = .none) {
            self.level = level
            self.keys = keys
            self.children = children
            self.counts = counts
            self.origin = origin
            isDirty = origin.isNone
        }

        var total: Int { counts.reduce(0, +) }
    }

    /// Where a read finds a leaf.
    enum LeafLocation {
        case stored(NodeRef)
        case loaded(Leaf)
    }

    /// The most children a branch holds before it splits. Every commit rewrites the branches above what it
    /// changed: 128 children (32 bytes each) keep a branch within one or two pages, where 256 took three, and a
    /// million objects still sit three levels deep.
    static var maxFanout: Int { 128 }

    let reader: NodeReader
    var context: Context
    let what: String
    @exclusivity(unchecked) var storedRoot: NodeRef
    @exclusivity(unchecked) private var root: Branch?
    /// Leaves currently decoded; the owner flushes when this grows large, to bound memory.
    @exclusivity(unchecked) private(set) var loadedLeaves = 0

    init(root: NodeRef, reader: NodeReader, context: Context, what: String) {
        storedRoot = root
        self.reader = reader
        self.context = context
        self.what = what
    }

    /// Whether the tree keeps the branches it reads (see ``cacheStoredBranches()``).
    @exclusivity(unchecked) private var cachesBranches = false
    /// The branches read so far, when ``cachesBranches``: 64 slots, growing to 1,024 (the inner branches of a
    /// table or an index of a million entries, three levels deep, are a dozen or two; 56 KiB at most).
    @exclusivity(unchecked) private var storedBranches = KeptNodes<BranchView>(first: 64, most: 1_024)

    /// Keeps the branches this tree reads, for a tree of a read transaction: its stored nodes never change and
    /// their bytes stay where they are until the transaction ends (the `NodeReader` contract), so a branch read
    /// and checked once serves every later descent. A lookup in a loop (an index, then the object's cluster)
    /// then reads its root and most of its inner branches from here rather than through the pager, which checks
    /// the node's header and its verification on every read. Call before the first read; never for a tree that
    /// can change.
    func cacheStoredBranches() {
        cachesBranches = true
    }

    /// The stored branch `ref`, from ``storedBranches`` when kept there.
    @inline(__always)
    private func branchView(_ ref: NodeRef) throws -> BranchView {
        guard cachesBranches else { return try BranchView(try reader.read(ref), ref: ref) }
        if let kept = storedBranches.value(for: ref) { return kept }
        let view = try BranchView(try reader.read(ref), ref: ref)
        storedBranches.keep(view, for: ref)
        return view
    }

    /// The payloads of the stored leaves read so far, when ``cachesBranches``: 256 slots (8 KiB), growing to
    /// 8,192 (256 KiB) for a tree whose lookups keep reaching thousands of leaves, as the index and the clusters
    /// of a million objects do.
    @exclusivity(unchecked) private var keptLeaves = KeptNodes<UnsafeRawBufferPointer>(first: 256, most: 8_192)

    /// The payload of the stored leaf `ref`: for a tree of a read transaction (``cacheStoredBranches()``), read
    /// through the pager (its bounds, header, binding and checksum checks, and the lock of its verification
    /// table) the first time only, then from ``keptLeaves``; otherwise read through the pager each time.
    ///
    /// A lookup in a loop (`name == %@`, then the object's cluster) reads two leaves per object; those it reads
    /// again skip the pager.
    @inline(__always)
    func storedLeaf(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        guard cachesBranches else { return try reader.read(ref) }
        if let kept = keptLeaves.value(for: ref) { return kept }
        let payload = try reader.read(ref)
        keptLeaves.keep(payload, for: ref)
        return payload
    }

    /// How many slots the kept leaves have now (0 before the first leaf read through ``storedLeaf(_:)``); for
    /// tests.
    var keptLeafSlotCount: Int { keptLeaves.slotCount }

    /// How many slots the kept branches have now (0 before the first branch read); for tests.
    var keptBranchSlotCount: Int { storedBranches.slotCount }

    /// The storage of the last change's root-to-leaf path, kept for the next change (empty between changes): a
    /// bulk insert makes millions of changes, and one path allocation each showed in profiles.
    @exclusivity(unchecked) private var spareRoute: [(Branch, Int)] = []

    /// Nodes replaced by changes that happened before the writer was at hand; freed at `flush`.
    @exclusivity(unchecked) private var pendingFrees: [NodeRef] = []
}

// Everything that needs the leaves' operations: in an extension constrained to `TreeLeaf`, so the class's own
// generic signature asks only that a leaf is a class (see the type's notes).
extension NodeTree where Leaf: TreeLeaf, Leaf.Context == Context {
    /// Whether part of the tree is decoded (changes may be pending).
    var isLoaded: Bool { root != nil }

    var isEmpty: Bool { root == nil ? storedRoot.isNone : root!.children.isEmpty }

    // MARK: Reading

    /// Total entries in the tree.
    func count() throws -> Int {
        if let root { return root.total }
        guard !storedRoot.isNone else { return 0 }
        let view = try branchView(storedRoot)
        return (0..<view.count).reduce(0) { $0 + view.entriesBelow($1) }
    }

    /// The leaf whose key range holds `key` (`nil` for an empty tree).
    func locate(_ key: UnsafeRawBufferPointer) throws -> LeafLocation? {
        try locateWithEdge(key)?.location
    }

    /// The leaf whose key range holds `key`, and whether it is the last leaf of the tree (so nothing sorts after
    /// its entries).
    func locateWithEdge(_ key: UnsafeRawBufferPointer) throws -> (location: LeafLocation, isLast: Bool)? {
        try descend(to: key, counting: false).map { ($0.location, $0.isLast) }
    }

    /// The leaf whose key range holds `key`, with the separator that follows it on the descent when the branches
    /// on the path are stored and that separator is 8 bytes long (a cluster tree's), read as the object key it
    /// encodes (``ByteOrder/int64(fromKey:)``): every entry of the leaf sorts before it, so a key at or past it is
    /// not there. `nil` for the tree's last leaf, and for a path through a branch decoded in this write transaction.
    func locateWithUpperBound(_ key: UnsafeRawBufferPointer) throws -> (location: LeafLocation, upper: Int64?)? {
        try descend(to: key, counting: false, bounding: true).map { ($0.location, $0.upper) }
    }

    /// How many entries sort before `key`: the counts of the subtrees left of its path (kept in the branches),
    /// plus `inLeaf`'s count of those before `key` in the leaf that holds it. One descent, whatever the answer.
    func rank(of key: UnsafeRawBufferPointer, inLeaf: (LeafLocation) throws -> Int) throws -> Int {
        guard let (location, _, before, _) = try descend(to: key, counting: true) else { return 0 }
        return before + (try inLeaf(location))
    }

    /// The descent to the leaf whose key range holds `key`: the leaf, whether it is the tree's last, (when
    /// `counting`) how many entries the subtrees left of the path hold, and (when `bounding`) the stored separator
    /// after the path's last step as ``locateWithUpperBound(_:)`` gives it.
    @inline(__always)
    private func descend(
        to key: UnsafeRawBufferPointer, counting: Bool, bounding: Bool = false
    ) throws -> (location: LeafLocation, isLast: Bool, before: Int, upper: Int64?)? {
        var isLast = true
        var before = 0
        var upper: Int64?
        var child: Child
        if let root {
            guard !root.children.isEmpty else { return nil }
            child = .branch(root)
        } else {
            guard !storedRoot.isNone else { return nil }
            child = .stored(storedRoot)
        }
        var level = Int.max
        while true {
            switch child {
            case .leaf(let leaf): return (.loaded(leaf), isLast, before, nil)
            case .branch(let branch):
                level = branch.level
                let index = NodeTree.childIndex(branch, key)
                isLast = isLast && index == branch.children.count - 1
                if counting { before += branch.counts[..<index].reduce(0, +) }
                // A decoded branch's separators are not read in place: no bound.
                if bounding { upper = nil }
                child = branch.children[index]
            case .stored(let ref):
                if level == 1 { return (.stored(ref), isLast, before, upper) }
                let view = try branchView(ref)
                guard view.level < level else { throw NodeDamage.error(ref, what, "tree levels do not descend") }
                level = view.level
                let index = try view.childIndex(for: key, interpolating: Leaf.keysAreObjectKeys)
                isLast = isLast && index == view.count - 1
                if counting { for left in 0..<index { before += view.entriesBelow(left) } }
                // The next separator bounds this child; the last child keeps the bound its parent gave.
                if bounding, index + 1 < view.count {
                    let separator = try view.key(index + 1)
                    upper = separator.count == 8 ? ByteOrder.int64(fromKey: separator) : nil
                }
                child = .stored(try view.child(index))
            }
        }
    }

    /// Visits the leaves in key order, starting with the one that holds `start` (or the first). `body` returns
    /// `false` to stop.
    func forEachLeaf(from start: [UInt8]? = nil, _ body: (LeafLocation) throws -> Bool) throws {
        if let root {
            _ = try visit(.branch(root), level: root.level + 1, start: start, body)
        } else if !storedRoot.isNone {
            _ = try visit(.stored(storedRoot), level: 33, start: start, body)
        }
    }

    private func visit(_ child: Child, level: Int, start: [UInt8]?, _ body: (LeafLocation) throws -> Bool) throws -> Bool {
        switch child {
        case .leaf(let leaf): return try body(.loaded(leaf))
        case .branch(let branch):
            let first = start.map { NodeTree.childIndex(branch, $0) } ?? 0
            for index in first..<branch.children.count {
                if !(try visit(branch.children[index], level: branch.level, start: index == first ? start : nil, body)) { return false }
            }
            return true
        case .stored(let ref):
            if level == 1 { return try body(.stored(ref)) }
            let view = try branchView(ref)
            guard view.level < level else { throw NodeDamage.error(ref, what, "tree levels do not descend") }
            var first = 0
            if let start { first = try start.withUnsafeBytes { try view.childIndex(for: $0) } }
            for index in first..<view.count {
                let next: Child = .stored(try view.child(index))
                if !(try visit(next, level: view.level, start: index == first ? start : nil, body)) { return false }
            }
            return true
        }
    }

    /// The leaf holding the entry at `position` in key order and the position inside it.
    func locate(position: Int) throws -> (LeafLocation, Int)? {
        var remaining = position
        var child: Child
        var level = Int.max
        if let root { child = .branch(root) } else {
            guard !storedRoot.isNone else { return nil }
            child = .stored(storedRoot)
        }
        while true {
            switch child {
            case .leaf(let leaf): return remaining < leaf.entryCount ? (.loaded(leaf), remaining) : nil
            case .branch(let branch):
                level = branch.level
                guard let index = branch.counts.indices.first(where: { index in
                    if remaining < branch.counts[index] { return true }
                    remaining -= branch.counts[index]
                    return false
                }) else { return nil }
                child = branch.children[index]
            case .stored(let ref):
                if level == 1 { return (.stored(ref), remaining) }
                let view = try branchView(ref)
                guard view.level < level else { throw NodeDamage.error(ref, what, "tree levels do not descend") }
                level = view.level
                var found: NodeRef?
                for index in 0..<view.count {
                    if remaining < view.entriesBelow(index) {
                        found = try view.child(index)
                        break
                    }
                    remaining -= view.entriesBelow(index)
                }
                guard let found else { return nil }
                child = .stored(found)
            }
        }
    }

    // MARK: Changing

    /// Decodes the path to the leaf for `key` (creating the first leaf of an empty tree), runs `body` on it,
    /// then restores the tree's shape: counts, splits of overfull nodes, merges of underfull leaves.
    @discardableResult
    func update<R>(_ key: [UInt8], _ body: (Leaf) throws -> R) throws -> R {
        try key.withUnsafeBytes { try update($0, body) }
    }

    /// `update` for a key the caller holds as raw bytes (an object key on the stack: no array per change).
    @discardableResult
    func update<R>(_ key: UnsafeRawBufferPointer, _ body: (Leaf) throws -> R) throws -> R {
        try update(key, wantsBound: false) { leaf, _ in try body(leaf) }
    }

    /// `update` that also hands `body` the smallest key of the leaves after this one (`nil` for the last leaf):
    /// every key below it belongs in this leaf, which lets a sorted batch go in leaf by leaf.
    @discardableResult
    func update<R>(_ key: UnsafeRawBufferPointer, bounded body: (Leaf, BranchKey?) throws -> R) throws -> R {
        try update(key, wantsBound: true, body)
    }

    private func update<R>(_ key: UnsafeRawBufferPointer, wantsBound: Bool, _ body: (Leaf, BranchKey?) throws -> R) throws -> R {
        let root = try loadedRoot()
        if root.children.isEmpty {
            root.level = 1
            let leaf = Leaf.empty(context: context)
            leaf.isDirty = true
            root.keys = [BranchKey(key)]
            root.children = [.leaf(leaf)]
            root.counts = [0]
            root.isDirty = true
            loadedLeaves += 1
        }
        var path = takeRoute()
        defer { giveBack(&path) }
        var branch = root
        // The separator after the child taken at the deepest level that has one: the leaf's upper bound.
        var bound: (Branch, Int)?
        while true {
            let index = NodeTree.childIndex(branch, key)
            path.append((branch, index))
            branch.isDirty = true
            if wantsBound, index + 1 < branch.keys.count { bound = (branch, index + 1) }
            if branch.level == 1 { break }
            branch = try loadBranch(branch, index)
        }
        let (parent, index) = path[path.count - 1]
        let leaf = try loadLeaf(parent, index)
        let result = try body(leaf, bound.map { $0.0.keys[$0.1] })
        leaf.isDirty = true
        try reshape(leaf: leaf, path: path)
        return result
    }

    /// Runs `body` on the last leaf, for a key that sorts after every key of the tree (as bulk inserts add
    /// them): the descent follows the right edge instead of comparing keys on the way down, then the tree is
    /// reshaped as `update` does.
    ///
    /// `body` returns `nil`, having changed nothing, when the leaf's entries show the key does not sort after
    /// them all; the caller then takes `update`.
    func updateLast<R>(_ key: UnsafeRawBufferPointer, _ body: (Leaf) throws -> R?) throws -> R? {
        let root = try loadedRoot()
        if root.children.isEmpty { return try update(key, wantsBound: false) { leaf, _ in try body(leaf) } }
        // The right edge, without a path: a bulk insert appends to the last leaf millions of times, and nearly
        // every time the leaf only grows within its bounds (the first branch of `reshape`), which needs no path.
        var parent = root
        while parent.level > 1 {
            guard !parent.children.isEmpty else { return nil }
            parent = try loadBranch(parent, parent.children.count - 1)
        }
        guard !parent.children.isEmpty else { return nil }
        let leaf = try loadLeaf(parent, parent.children.count - 1)
        guard let result = try body(leaf) else { return nil }
        leaf.isDirty = true
        let delta = leaf.entryCount - parent.counts[parent.children.count - 1]
        if delta > 0, leaf.fill != .overfull {
            // What `reshape` does for a leaf that grew and fits: the counts on the edge move by `delta`.
            var branch = root
            while true {
                branch.isDirty = true
                branch.counts[branch.counts.count - 1] += delta
                guard branch.level > 1, case .branch(let child) = branch.children[branch.children.count - 1] else {
                    break
                }
                branch = child
            }
            return result
        }
        try reshapeLast(leaf)
        return result
    }

    /// `reshape` for the last leaf after ``updateLast(_:_:)`` changed it in a way that may need a split, a merge or
    /// a removal: the right edge's path, then the general case.
    private func reshapeLast(_ leaf: Leaf) throws {
        var path = takeRoute()
        defer { giveBack(&path) }
        var branch = try loadedRoot()
        while true {
            let index = branch.children.count - 1
            path.append((branch, index))
            branch.isDirty = true
            if branch.level == 1 { break }
            branch = try loadBranch(branch, index)
        }
        try reshape(leaf: leaf, path: path)
    }

    /// The spare path array, for one change; return it with `giveBack(_:)`.
    private func takeRoute() -> [(Branch, Int)] {
        defer { spareRoute = [] }
        return spareRoute
    }

    /// Keeps `path`'s storage, emptied, for the next change.
    private func giveBack(_ path: inout [(Branch, Int)]) {
        path.removeAll(keepingCapacity: true)
        spareRoute = path
    }

    /// Runs `body` on every leaf, decoded for change (used when a column is added or removed). Each leaf is
    /// written out right after, so memory stays bounded by one leaf whatever the table's size.
    func updateEveryLeaf(in writer: NodeWriter, _ body: (Leaf) throws -> Void) throws {
        let root = try loadedRoot()
        func walk(_ branch: Branch) throws {
            branch.isDirty = true
            for index in branch.children.indices {
                if branch.level == 1 {
                    let wasLoaded: Bool
                    if case .leaf = branch.children[index] { wasLoaded = true } else { wasLoaded = false }
                    let leaf = try loadLeaf(branch, index)
                    try body(leaf)
                    leaf.isDirty = true
                    branch.counts[index] = leaf.entryCount
                    if !wasLoaded {
                        let ref = try leaf.encode(in: writer)
                        if !leaf.origin.isNone { writer.free(leaf.origin) }
                        branch.children[index] = .stored(ref)
                        loadedLeaves -= 1
                    }
                } else {
                    let child = try loadBranch(branch, index)
                    try walk(child)
                    branch.counts[index] = child.total
                }
            }
        }
        try walk(root)
    }

    /// Writes every changed node, frees the nodes they replace, drops decoded nodes, and returns the new root.
    func flush(in writer: NodeWriter) throws -> NodeRef {
        guard let root else { return storedRoot }
        for ref in pendingFrees { writer.free(ref) }
        pendingFrees.removeAll()
        if root.children.isEmpty {
            if !root.origin.isNone { writer.free(root.origin) }
            storedRoot = .none
        } else {
            storedRoot = try write(root, writer)
        }
        self.root = nil
        loadedLeaves = 0
        return storedRoot
    }

    // MARK: Internals

    static func childIndex(_ branch: Branch, _ key: [UInt8]) -> Int {
        key.withUnsafeBytes { childIndex(branch, $0) }
    }

    static func childIndex(_ branch: Branch, _ key: UnsafeRawBufferPointer) -> Int {
        // Separator 0 is the leftmost child's open lower bound: the search starts at 1.
        (1..<max(1, branch.keys.count)).partitionIndex { branch.keys[$0].compare(key) > 0 } - 1
    }

    private func loadedRoot() throws -> Branch {
        if let root { return root }
        let branch: Branch
        if storedRoot.isNone {
            branch = Branch(level: 1)
        } else {
            branch = try decodeBranch(storedRoot, parentLevel: 33)
        }
        root = branch
        return branch
    }

    private func decodeBranch(_ ref: NodeRef, parentLevel: Int) throws -> Branch {
        let view = try BranchView(try reader.read(ref), ref: ref)
        guard view.level < parentLevel else { throw NodeDamage.error(ref, what, "tree levels do not descend") }
        let branch = Branch(level: view.level, origin: ref)
        for index in 0..<view.count {
            branch.keys.append(BranchKey(try view.key(index)))
            branch.children.append(.stored(try view.child(index)))
            branch.counts.append(view.entriesBelow(index))
        }
        return branch
    }

    private func loadBranch(_ parent: Branch, _ index: Int) throws -> Branch {
        switch parent.children[index] {
        case .branch(let branch): return branch
        case .stored(let ref):
            let branch = try decodeBranch(ref, parentLevel: parent.level)
            guard branch.level == parent.level - 1 else { throw NodeDamage.error(ref, what, "tree levels skip a level") }
            parent.children[index] = .branch(branch)
            return branch
        case .leaf: throw NodeDamage.error(parent.origin, what, "a leaf sits above level 1")
        }
    }

    private func loadLeaf(_ parent: Branch, _ index: Int) throws -> Leaf {
        switch parent.children[index] {
        case .leaf(let leaf): return leaf
        case .stored(let ref):
            let leaf = try Leaf.load(try reader.read(ref), ref: ref, context: context)
            leaf.origin = ref
            parent.children[index] = .leaf(leaf)
            loadedLeaves += 1
            return leaf
        case .branch: throw NodeDamage.error(parent.origin, what, "a branch sits at level 1")
        }
    }

    private func reshape(leaf: Leaf, path: [(Branch, Int)]) throws {
        var (parent, index) = path[path.count - 1]
        let delta = leaf.entryCount - parent.counts[index]
        parent.counts[index] = leaf.entryCount
        // Splits and merges move entries between siblings; only the change in this leaf's count reaches the
        // ancestors, so their counts move by `delta` without summing their children.
        for (ancestor, position) in path.dropLast() { ancestor.counts[position] += delta }
        // The common case (a leaf that neither splits nor empties nor wants a neighbour) leaves every branch as
        // it was: nothing above needs a look.
        let fill = leaf.fill
        // A leaf that gained an entry only grew: if a neighbour could not take it before, it cannot now. Asking
        // again cost a bulk insert two cluster sizes per row while each new cluster filled its first quarter.
        let wantsMerge = delta <= 0 && fill == .underfull && parent.children.count > 1
        if !wantsMerge, leaf.entryCount > 0, fill != .overfull { return }
        if fill == .overfull {
            var pieces: [Leaf] = []
            var current = leaf
            while current.isOverfull {
                let upper = current.splitOff()
                pieces.append(upper)
                current = upper
            }
            parent.counts[index] = leaf.entryCount
            for (offset, piece) in pieces.enumerated() {
                parent.keys.insert(BranchKey(piece.firstKey), at: index + 1 + offset)
                parent.children.insert(.leaf(piece), at: index + 1 + offset)
                parent.counts.insert(piece.entryCount, at: index + 1 + offset)
                loadedLeaves += 1
            }
        } else if leaf.entryCount == 0 {
            removeChild(parent, index)
        } else if wantsMerge {
            if index > 0, case let left = try loadLeaf(parent, index - 1), left.canAbsorb(leaf) {
                left.absorb(leaf)
                left.isDirty = true
                parent.counts[index - 1] = left.entryCount
                removeChild(parent, index)
            } else if index + 1 < parent.children.count, case let right = try loadLeaf(parent, index + 1), leaf.canAbsorb(right) {
                leaf.absorb(right)
                parent.counts[index] = leaf.entryCount
                removeChild(parent, index + 1)
            }
        }
        // Walk up: split wide branches, drop empty ones.
        var level = path.count - 2
        while level >= 0 {
            (parent, index) = path[level]
            let child = path[level + 1].0
            if child.children.isEmpty {
                removeChild(parent, index)
            } else if child.children.count > NodeTree.maxFanout {
                let half = child.children.count / 2
                let upper = Branch(level: child.level, keys: Array(child.keys[half...]),
                                   children: Array(child.children[half...]), counts: Array(child.counts[half...]))
                child.keys.removeSubrange(half...)
                child.children.removeSubrange(half...)
                child.counts.removeSubrange(half...)
                parent.counts[index] = child.total
                parent.keys.insert(upper.keys[0], at: index + 1)
                parent.children.insert(.branch(upper), at: index + 1)
                parent.counts.insert(upper.total, at: index + 1)
            }
            level -= 1
        }
        guard let root else { return }
        if root.children.count > NodeTree.maxFanout {
            let half = root.children.count / 2
            let lower = Branch(level: root.level, keys: Array(root.keys[..<half]), children: Array(root.children[..<half]),
                               counts: Array(root.counts[..<half]))
            let upper = Branch(level: root.level, keys: Array(root.keys[half...]), children: Array(root.children[half...]),
                               counts: Array(root.counts[half...]))
            let newRoot = Branch(level: root.level + 1, keys: [lower.keys[0], upper.keys[0]],
                                 children: [.branch(lower), .branch(upper)], counts: [lower.total, upper.total])
            if !root.origin.isNone { pendingFrees.append(root.origin) }
            self.root = newRoot
        } else if root.level > 1, root.children.count == 1 {
            let only = try loadBranch(root, 0)
            if !root.origin.isNone { pendingFrees.append(root.origin) }
            self.root = only
            only.isDirty = true
        }
    }

    private func removeChild(_ parent: Branch, _ index: Int) {
        switch parent.children[index] {
        case .stored(let ref): pendingFrees.append(ref)
        case .leaf(let leaf):
            if !leaf.origin.isNone { pendingFrees.append(leaf.origin) }
            loadedLeaves -= 1
        case .branch(let branch): if !branch.origin.isNone { pendingFrees.append(branch.origin) }
        }
        parent.keys.remove(at: index)
        parent.children.remove(at: index)
        parent.counts.remove(at: index)
        parent.isDirty = true
    }

    private func write(_ branch: Branch, _ writer: NodeWriter) throws -> NodeRef {
        for ref in pendingFrees { writer.free(ref) }
        pendingFrees.removeAll()
        var refs: [NodeRef] = []
        refs.reserveCapacity(branch.children.count)
        var changed = branch.isDirty || branch.origin.isNone
        for child in branch.children {
            switch child {
            case .stored(let ref): refs.append(ref)
            case .leaf(let leaf):
                if leaf.isDirty || leaf.origin.isNone {
                    refs.append(try leaf.encode(in: writer))
                    if !leaf.origin.isNone { writer.free(leaf.origin) }
                    changed = true
                } else {
                    refs.append(leaf.origin)
                }
            case .branch(let inner):
                let ref = try write(inner, writer)
                if ref != inner.origin { changed = true }
                refs.append(ref)
            }
        }
        guard changed else { return branch.origin }
        let ref = try BranchView.encode(level: branch.level, keys: branch.keys, children: refs, counts: branch.counts, in: writer)
        if !branch.origin.isNone { writer.free(branch.origin) }
        return ref
    }
}

/// A table's clusters: its objects by object key.
typealias ClusterTree = NodeTree<ClusterBuffer, ClusterContext>

/// A sorted or full-text index's entries, by their encoded keys.
typealias IndexTree = NodeTree<IndexLeaf, Void>

import StrataStorage

/// A `NodeWriter` over heap buffers for table-layer tests: `commit()` keeps the written version, `rollback()`
/// returns to the last committed one.
///
/// It enforces the copy-on-write contract the pager relies on: a committed node is never handed out writable,
/// freeing a node twice or reading a freed node is caught, and committed nodes are checked (by checksum) to be
/// unchanged at every commit and rollback, so a table-layer write through a stale pointer is found.
///
/// A node written and freed in the same transaction is poisoned (every byte set to `poison`) and kept for a while
/// instead of being released: a store may reuse its space at once, so a reader still holding a pointer into it
/// must see garbage in tests, deterministically, rather than the old bytes malloc happened to leave (or memory
/// handed to someone else). The bytes kept this way are bounded by `quarantineLimit`.
package final class MemoryNodeSpace: NodeWriter {
    /// The byte every freed node written in this transaction is filled with (as a branch's child reference or a
    /// leaf's count, it reads as a huge number: no such node, or a damaged header).
    package static let poison: UInt8 = 0xDB
    /// The most bytes of freed, poisoned nodes kept readable before the oldest are released (a use after free
    /// follows its free closely; a long transaction must not keep everything it ever wrote).
    static let quarantineLimit = 32 << 20

    private final class Node {
        enum State { case dirty, committed, freedCommitted, freedDirty }
        let memory: UnsafeMutableRawBufferPointer
        let byteCount: Int
        var checksum: UInt64 = 0
        var state = State.dirty
        init(byteCount: Int) {
            self.byteCount = byteCount
            memory = .allocate(byteCount: max(byteCount, 1), alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0)
        }
        deinit { memory.deallocate() }
        /// Whether the node belongs to the committed version (freed in this transaction or not).
        var isCommitted: Bool { state == .committed || state == .freedCommitted }
        var payload: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(rebasing: memory[..<byteCount]) }
    }

    /// Nodes by reference (references are handed out in sequence, so an array is the map); `nil` = no node.
    private var nodes: [Node?] = [nil]
    private var dirtyRefs: Set<Int> = []
    private var freedRefs: Set<Int> = []
    /// Poisoned nodes written and freed in this transaction, oldest first from `quarantineStart`.
    private var quarantine: [Int] = []
    private var quarantineStart = 0
    private var quarantineBytes = 0
    private var committedRoot: NodeRef = .none
    /// Problems found so far; tests assert this stays empty.
    package private(set) var violations: [String] = []

    /// The root of the version being written.
    package var root: NodeRef = .none

    /// An empty space.
    package init() {}

    /// Number of committed nodes (what a file would hold).
    package var committedNodeCount: Int { committedRefs.count }

    /// Every committed node's reference (for coverage checks against a reachability visitor).
    package var committedRefs: Set<NodeRef> {
        Set(nodes.indices.filter { nodes[$0].map(\.isCommitted) ?? false }.map { NodeRef(rawValue: UInt64($0)) })
    }

    private func node(_ ref: NodeRef) -> Node? {
        guard ref.rawValue < UInt64(nodes.count) else { return nil }
        return nodes[Int(ref.rawValue)]
    }

    /// The payload of `ref`.
    package func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        guard let node = node(ref) else {
            throw StrataError.corruptFile(path: "memory", location: "node \(ref)", detail: "no such node")
        }
        switch node.state {
        case .dirty, .committed: break
        case .freedCommitted: violations.append("read of freed committed node \(ref)")
        case .freedDirty: violations.append("read of freed node \(ref) (written and freed in this transaction)")
        }
        return UnsafeRawBufferPointer(node.payload)
    }

    /// A new zero-filled dirty node.
    package func allocate(byteCount: Int) throws -> (NodeRef, UnsafeMutableRawBufferPointer) {
        let node = Node(byteCount: byteCount)
        nodes.append(node)
        dirtyRefs.insert(nodes.count - 1)
        return (NodeRef(rawValue: UInt64(nodes.count - 1)), node.payload)
    }

    /// The payload of a dirty node, `nil` for a committed one.
    package func writableIfDirty(_ ref: NodeRef) -> UnsafeMutableRawBufferPointer? {
        guard let node = node(ref), node.state == .dirty else { return nil }
        return node.payload
    }

    /// Releases a node.
    package func free(_ ref: NodeRef) {
        guard let node = node(ref) else { return violations.append("free of unknown node \(ref)") }
        switch node.state {
        case .dirty:
            dirtyRefs.remove(Int(ref.rawValue))
            node.memory.initializeMemory(as: UInt8.self, repeating: MemoryNodeSpace.poison)
            node.state = .freedDirty
            quarantine.append(Int(ref.rawValue))
            quarantineBytes += node.byteCount
            releaseQuarantine(downTo: MemoryNodeSpace.quarantineLimit)
        case .committed:
            node.state = .freedCommitted
            freedRefs.insert(Int(ref.rawValue))
        case .freedCommitted:
            violations.append("double free of committed node \(ref)")
        case .freedDirty:
            violations.append("double free of node \(ref) (written and freed in this transaction)")
        }
    }

    /// Releases the oldest quarantined nodes until at most `limit` bytes stay (`0` empties the quarantine).
    private func releaseQuarantine(downTo limit: Int) {
        while quarantineStart < quarantine.count, limit == 0 || quarantineBytes > limit {
            let ref = quarantine[quarantineStart]
            quarantineStart += 1
            quarantineBytes -= nodes[ref]?.byteCount ?? 0
            nodes[ref] = nil
        }
        if quarantineStart == quarantine.count || quarantineStart > 4096 {
            quarantine.removeFirst(quarantineStart)
            quarantineStart = 0
        }
    }

    /// Makes the written version the committed one.
    package func commit() {
        checkCommittedUnchanged()
        releaseQuarantine(downTo: 0)
        for ref in freedRefs { nodes[ref] = nil }
        freedRefs.removeAll()
        for ref in dirtyRefs {
            guard let node = nodes[ref] else { continue }
            node.state = .committed
            node.checksum = MemoryNodeSpace.checksum(node)
        }
        dirtyRefs.removeAll()
        committedRoot = root
    }

    /// Discards everything written since the last commit.
    package func rollback() {
        checkCommittedUnchanged()
        releaseQuarantine(downTo: 0)
        for ref in dirtyRefs { nodes[ref] = nil }
        dirtyRefs.removeAll()
        for ref in freedRefs { nodes[ref]?.state = .committed }
        freedRefs.removeAll()
        root = committedRoot
    }

    /// Overwrites bytes of a node (damage tests) and re-seals its checksum so only the table layer can notice.
    package func damage(_ ref: NodeRef, _ change: (UnsafeMutableRawBufferPointer) -> Void) {
        guard let node = node(ref) else { return }
        change(node.payload)
        node.checksum = MemoryNodeSpace.checksum(node)
    }

    /// The size of a node's payload.
    package func byteCount(of ref: NodeRef) -> Int? { node(ref)?.byteCount }

    private func checkCommittedUnchanged() {
        for (ref, node) in nodes.enumerated() {
            guard let node, node.isCommitted else { continue }
            if MemoryNodeSpace.checksum(node) != node.checksum { violations.append("committed node #\(ref) was modified") }
        }
    }

    private static func checksum(_ node: Node) -> UInt64 {
        // FNV-1a over 8-byte words (then the tail bytes): fast enough to recheck every committed node at every
        // commit in debug builds.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let words = node.byteCount / 8
        for index in 0..<words {
            hash = (hash ^ node.memory.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0x100_0000_01B3
        }
        for index in words * 8..<node.byteCount { hash = (hash ^ UInt64(node.memory[index])) &* 0x100_0000_01B3 }
        return hash
    }
}

import StrataStorage

/// A `NodeWriter` over heap buffers for table-layer tests: `commit()` keeps the written version, `rollback()`
/// returns to the last committed one.
///
/// It enforces the copy-on-write contract the pager relies on: a committed node is never handed out writable,
/// freeing a node twice or reading a freed node is caught, and committed nodes are checked (by checksum) to be
/// unchanged at every commit and rollback, so a table-layer write through a stale pointer is found.
public final class MemoryNodeSpace: NodeWriter {
    private final class Node {
        let memory: UnsafeMutableRawBufferPointer
        let byteCount: Int
        var checksum: UInt64 = 0
        init(byteCount: Int) {
            self.byteCount = byteCount
            memory = .allocate(byteCount: max(byteCount, 1), alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0)
        }
        deinit { memory.deallocate() }
    }

    /// A violation of the node contract, reported as a test failure by the caller.
    public struct ContractViolation: Error, CustomStringConvertible {
        /// What happened.
        public let description: String
    }

    private var committed: [UInt64: Node] = [:]
    private var dirty: [UInt64: Node] = [:]
    /// Committed nodes freed in the current transaction (dropped at commit, restored at rollback).
    private var freedCommitted: Set<UInt64> = []
    private var committedRoot: NodeRef = .none
    private var nextRef: UInt64 = 1
    /// Problems found so far; tests assert this stays empty.
    public private(set) var violations: [String] = []

    /// The root of the version being written.
    public var root: NodeRef = .none

    /// An empty space.
    public init() {}

    /// Number of committed nodes (what a file would hold).
    public var committedNodeCount: Int { committed.count }

    /// Every committed node's reference (for coverage checks against a reachability visitor).
    public var committedRefs: Set<NodeRef> { Set(committed.keys.map { NodeRef(rawValue: $0) }) }

    /// Every live node of the version being written (committed and not freed, plus dirty).
    public var liveRefs: Set<NodeRef> {
        Set(committed.keys.filter { !freedCommitted.contains($0) }.map { NodeRef(rawValue: $0) })
            .union(dirty.keys.map { NodeRef(rawValue: $0) })
    }

    /// The payload of `ref`.
    public func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer {
        if let node = dirty[ref.rawValue] { return UnsafeRawBufferPointer(rebasing: node.memory[..<node.byteCount]) }
        if let node = committed[ref.rawValue] {
            if freedCommitted.contains(ref.rawValue) { violations.append("read of freed committed node \(ref)") }
            return UnsafeRawBufferPointer(rebasing: node.memory[..<node.byteCount])
        }
        throw StrataError.corruptFile(path: "memory", location: "node \(ref)", detail: "no such node")
    }

    /// A new zero-filled dirty node.
    public func allocate(byteCount: Int) throws -> (NodeRef, UnsafeMutableRawBufferPointer) {
        let node = Node(byteCount: byteCount)
        let ref = nextRef
        nextRef += 1
        dirty[ref] = node
        return (NodeRef(rawValue: ref), UnsafeMutableRawBufferPointer(rebasing: node.memory[..<byteCount]))
    }

    /// The payload of a dirty node, `nil` for a committed one.
    public func writableIfDirty(_ ref: NodeRef) -> UnsafeMutableRawBufferPointer? {
        guard let node = dirty[ref.rawValue] else { return nil }
        return UnsafeMutableRawBufferPointer(rebasing: node.memory[..<node.byteCount])
    }

    /// Releases a node.
    public func free(_ ref: NodeRef) {
        if dirty.removeValue(forKey: ref.rawValue) != nil { return }
        if committed[ref.rawValue] != nil {
            if !freedCommitted.insert(ref.rawValue).inserted { violations.append("double free of committed node \(ref)") }
            return
        }
        violations.append("free of unknown node \(ref)")
    }

    /// Makes the written version the committed one.
    public func commit() {
        checkCommittedUnchanged()
        for ref in freedCommitted { committed.removeValue(forKey: ref) }
        freedCommitted.removeAll()
        for (ref, node) in dirty {
            node.checksum = MemoryNodeSpace.checksum(node)
            committed[ref] = node
        }
        dirty.removeAll()
        committedRoot = root
    }

    /// Discards everything written since the last commit.
    public func rollback() {
        checkCommittedUnchanged()
        dirty.removeAll()
        freedCommitted.removeAll()
        root = committedRoot
    }

    /// Overwrites bytes of a committed node (damage tests) and re-seals its checksum so only the table layer
    /// can notice.
    public func damage(_ ref: NodeRef, _ change: (UnsafeMutableRawBufferPointer) -> Void) {
        guard let node = committed[ref.rawValue] ?? dirty[ref.rawValue] else { return }
        change(UnsafeMutableRawBufferPointer(rebasing: node.memory[..<node.byteCount]))
        node.checksum = MemoryNodeSpace.checksum(node)
    }

    /// The size of a node's payload.
    public func byteCount(of ref: NodeRef) -> Int? { (committed[ref.rawValue] ?? dirty[ref.rawValue])?.byteCount }

    private func checkCommittedUnchanged() {
        for (ref, node) in committed where MemoryNodeSpace.checksum(node) != node.checksum {
            violations.append("committed node #\(ref) was modified")
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

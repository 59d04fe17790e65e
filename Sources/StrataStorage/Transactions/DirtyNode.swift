#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A node allocated in the current write transaction: in memory until commit, unless the transaction grew large
/// and wrote it to the file early (*spilled* it).
struct DirtyNode {
    /// Header (32 bytes) followed by the payload; `pages` pages long.
    let memory: UnsafeMutableRawPointer
    let length: Int
    let pages: UInt64
    let kind: NodeKind
    /// Where `memory` comes from, and so how it is given back.
    let origin: Origin
    /// The checksum the node was sealed with when it was spilled; nil while it is only in memory. A spilled node
    /// is final: it is no longer writable, and commit lists it without writing it again.
    var spilledChecksum: UInt64?
    /// Whether `read` has handed out a pointer into `memory`: the memory must then stay until the transaction
    /// ends, as `NodeReader` promises.
    var isHandedOut = false
    /// Whether `memory` was given back after spilling (the node was never handed out, and is read from the file
    /// from then on). `memory` must not be used then.
    var isReleased = false

    /// Where a node's memory comes from.
    enum Origin {
        /// The heap: it keeps its bytes after spilling.
        case heap
        /// An anonymous mapping of its own, which spilling can replace by a read-only view of the file's pages at
        /// the same address.
        case mapping
        /// A chunk of the transaction's `NodeArena`: page-aligned like a mapping of its own, and given back to the
        /// arena (which hands it out again) instead of unmapped.
        case arena
    }

    /// Whether `memory` is page-aligned private memory that spilling can replace by a read-only view of the file's
    /// pages at the same address (else it comes from the heap and keeps its bytes after spilling).
    var isMapped: Bool { origin != .heap }

    /// A node of `pages` pages whose first `usedBytes` bytes (header and payload) matter: zero-filled, or, when
    /// `zeroed` is false, left as they are for a caller that overwrites all of them (commit sets every header
    /// byte; bytes past `usedBytes` are never written to the file from memory, see `Store.writeCoalesced`).
    ///
    /// - Parameters:
    ///   - mapped: Whether to give the node page-aligned private memory (for a large transaction, whose older nodes
    ///     may be spilled): a chunk of `arena` when one is given, else a mapping of its own; falls back to the heap
    ///     when mapping fails.
    ///   - arena: The write transaction's arena (see `NodeArena`).
    static func allocate(
        pages: UInt64, pageSize: Int, usedBytes: Int, kind: NodeKind, length: Int, mapped: Bool, zeroed: Bool = true,
        arena: NodeArena? = nil
    ) -> DirtyNode {
        let byteCount = Int(pages) * pageSize
        if mapped, let arena {
            if let memory = arena.take(pages: pages, usedBytes: usedBytes, zeroed: zeroed) {
                return DirtyNode(memory: memory, length: length, pages: pages, kind: kind, origin: .arena)
            }
        } else if mapped,
            let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED
        {
            // Fresh anonymous pages are zero already.
            return DirtyNode(memory: memory, length: length, pages: pages, kind: kind, origin: .mapping)
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        if zeroed {
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: usedBytes)
        } else {
            // The header is set at commit; zero it anyway (32 bytes) so no stale heap bytes are ever hashed.
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: NodeHeader.byteCount)
        }
        return DirtyNode(memory: memory, length: length, pages: pages, kind: kind, origin: .heap)
    }

    /// Bytes of memory the node takes.
    func byteCount(pageSize: Int) -> Int { Int(pages) * pageSize }

    /// Gives the node's memory back; pointers into it become invalid.
    ///
    /// - Parameter arena: The arena the node's memory came from, when its origin is `.arena`.
    func release(pageSize: Int, to arena: NodeArena? = nil) {
        switch origin {
        case .heap: memory.deallocate()
        case .mapping: munmap(memory, byteCount(pageSize: pageSize))
        case .arena:
            guard let arena else { preconditionFailure("a node of a NodeArena released without its arena") }
            // Spilled and still in memory: a read-only view of the file since (see `WriteTransaction.spill`).
            arena.giveBack(memory, pages: pages, isFileView: spilledChecksum != nil)
        }
    }
}

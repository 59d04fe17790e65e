#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Page-aligned memory for the spillable nodes of one write transaction, carved from a few large anonymous
/// mappings and reused as nodes are freed or spilled.
///
/// A bulk load allocates, spills and frees hundreds of thousands of nodes. Giving each one an anonymous mapping of
/// its own cost an `mmap` and a `munmap` per node, and a page fault per page on first touch: a quarter of a
/// million-object commit. Here a node takes a chunk of a region (`regionBytes`, one `mmap`); a chunk given back
/// goes on a list for its page count and is handed out again, already resident, with no system call. A spilled
/// node the table layer never read is given back at once (it is read from the file's pages from then on); one it
/// did read becomes a read-only view of the file at the same address (`StorageFile.mapReadOnly`), as before, and its
/// chunk comes back as fresh private memory when the node is freed. So a large transaction's resident node memory
/// stays about `StoreOptions.spillThreshold`, plus what the table layer holds pointers into.
///
/// Used by one write transaction, from one thread at a time; `unmapAll()` (the transaction's end) or `deinit`
/// returns every region.
final class NodeArena {
    /// One run of pages ready to hand out.
    private struct Chunk {
        let memory: UnsafeMutableRawPointer
        /// Whether every byte is zero (fresh from a mapping), so a zero-filled node needs no fill.
        let isZero: Bool
    }

    /// Bytes of each region: 1,024 pages of 4 KiB, four times the default spill threshold's worth of nodes.
    static let regionBytes = 4 << 20
    /// Nodes of more pages than this get a mapping of their own (rare: a cluster's long value, a large list).
    static let largestChunkPages = 32

    private let pageSize: Int
    /// Every region mapped, with its length (large nodes' own mappings included while they are held).
    private var regions: [(base: UnsafeMutableRawPointer, length: Int)] = []
    /// The unused tail of the newest region.
    private var bump: UnsafeMutableRawPointer?
    private var bumpEnd: UnsafeMutableRawPointer?
    /// Chunks given back, by page count (index 0 unused).
    private var free: [[Chunk]]

    /// An arena of nodes whose sizes are whole pages of `pageSize` bytes (a multiple of the system's page size).
    init(pageSize: Int) {
        self.pageSize = pageSize
        free = Array(repeating: [], count: Self.largestChunkPages + 1)
    }

    deinit { unmapAll() }

    /// Memory for a node of `pages` pages, page-aligned; `nil` when the system refuses a mapping (the caller then
    /// takes heap memory).
    ///
    /// - Parameters:
    ///   - usedBytes: the node's header and payload bytes: zero-filled when `zeroed`.
    ///   - zeroed: whether the first `usedBytes` bytes must be zero; otherwise only the 32-byte header is zeroed
    ///     (its caller overwrites the rest), so no stale bytes are ever hashed.
    func take(pages: UInt64, usedBytes: Int, zeroed: Bool) -> UnsafeMutableRawPointer? {
        let pageCount = Int(pages)
        let byteCount = pageCount * pageSize
        if pageCount > Self.largestChunkPages {
            guard let memory = Self.map(byteCount) else { return nil }
            regions.append((memory, byteCount))
            return memory
        }
        if let chunk = free[pageCount].popLast() {
            if !chunk.isZero {
                chunk.memory.initializeMemory(
                    as: UInt8.self, repeating: 0, count: zeroed ? usedBytes : NodeHeader.byteCount)
            }
            return chunk.memory
        }
        if let start = bump, let end = bumpEnd, end - start >= byteCount {
            bump = start + byteCount
            return start
        }
        let length = max(Self.regionBytes, byteCount)
        guard let region = Self.map(length) else { return nil }
        regions.append((region, length))
        // The rest of the older region is left unused: at most a few pages.
        bump = region + byteCount
        bumpEnd = region + length
        return region
    }

    /// Takes back the memory of a node of `pages` pages that `take` handed out. Pointers into it become invalid.
    ///
    /// - Parameter isFileView: whether the memory became a read-only view of the file (a spilled node the table
    ///   layer had read): it is replaced by fresh private pages before it is handed out again.
    func giveBack(_ memory: UnsafeMutableRawPointer, pages: UInt64, isFileView: Bool) {
        let pageCount = Int(pages)
        let byteCount = pageCount * pageSize
        if pageCount > Self.largestChunkPages {
            if let index = regions.lastIndex(where: { $0.base == memory }) {
                munmap(memory, byteCount)
                regions.remove(at: index)
            }
            return
        }
        guard isFileView else {
            free[pageCount].append(Chunk(memory: memory, isZero: false))
            return
        }
        // The region's unmapping at the end still covers these pages whether or not this succeeds; only a chunk
        // that is private memory again may be handed out.
        let remapped = mmap(memory, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        if remapped == memory { free[pageCount].append(Chunk(memory: memory, isZero: true)) }
    }

    /// Unmaps every region; every node's memory from this arena becomes invalid.
    func unmapAll() {
        for region in regions { munmap(region.base, region.length) }
        regions.removeAll()
        bump = nil
        bumpEnd = nil
        for index in free.indices { free[index].removeAll() }
    }

    /// Bytes of the regions mapped now (for tests).
    var mappedBytes: Int { regions.reduce(0) { $0 + $1.length } }

    /// Chunks waiting to be handed out again (for tests).
    var freeChunkCount: Int { free.reduce(0) { $0 + $1.count } }

    private static func map(_ byteCount: Int) -> UnsafeMutableRawPointer? {
        guard let memory = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED
        else { return nil }
        return memory
    }
}

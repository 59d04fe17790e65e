#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The free list as a version stores it: a full list (a kind-2 node, the *base*) written now and then, and
/// between two full lists a small node of changes to it (kind 4) that every commit writes instead.
///
/// Why: after a bulk load the free list holds hundreds of extents (25 KB for 800), and a one-value commit
/// changes a handful of them. Writing the whole list every commit made it the largest node of such a commit
/// (7 of its ~16 pages) and a fixed cost of every sync. A changes node lists what differs from the base:
/// base extents that are gone (by first page) and extents that are new or changed. The base stays reachable
/// (neither free nor reused) while a version's changes refer to it; a commit writes a new full list once the
/// changes would outgrow what rewriting the list costs (`prefersFullList`), and frees the old base then.
///
/// Payload of a changes node: `base: UInt64` (the kind-2 node), `removed: UInt64`, `removed` × `start: UInt64`
/// (sorted), `added: UInt64`, `added` × 32-byte extents as in the full list (sorted by start), zero padding.
struct FreeListChanges: Equatable, Sendable {
    /// The full free-list node the changes apply to.
    var base: NodeRef
    /// First pages of base extents that are no longer free as they were.
    var removed: [UInt64]
    /// Extents that are free now and not (as they are) in the base.
    var added: [FreeExtent]

    /// The changes that turn `base` (sorted by start) into `current` (sorted by start).
    ///
    /// - Complexity: O(n + m), one pass over both lists; stretches the two lists share (most of them: a commit
    ///   changes a few extents of thousands) are compared a block of extents at a time.
    init(base: NodeRef, from baseExtents: [FreeExtent], to current: [FreeExtent]) {
        self.base = base
        var removed: [UInt64] = []
        var added: [FreeExtent] = []
        baseExtents.withUnsafeBufferPointer { old in
            current.withUnsafeBufferPointer { new in
                var oldIndex = 0
                var newIndex = 0
                while oldIndex < old.count || newIndex < new.count {
                    if newIndex == new.count || (oldIndex < old.count && old[oldIndex].start < new[newIndex].start) {
                        removed.append(old[oldIndex].start)
                        oldIndex += 1
                    } else if oldIndex == old.count || new[newIndex].start < old[oldIndex].start {
                        added.append(new[newIndex])
                        newIndex += 1
                    } else if old[oldIndex] != new[newIndex] {
                        removed.append(old[oldIndex].start)
                        added.append(new[newIndex])
                        oldIndex += 1
                        newIndex += 1
                    } else {
                        let run = Self.sharedRun(old, from: oldIndex, new, from: newIndex)
                        oldIndex += run
                        newIndex += run
                    }
                }
            }
        }
        self.removed = removed
        self.added = added
    }

    /// How many extents from `oldIndex` in `old` equal those from `newIndex` in `new`, in order (at least one:
    /// the first pair is equal). A field-by-field loop over thousands of unchanged extents was most of a one-value
    /// commit's free-list cost; `memcmp` compares 16 at a time (an extent is four words, no padding).
    private static func sharedRun(_ old: UnsafeBufferPointer<FreeExtent>, from oldIndex: Int,
                                  _ new: UnsafeBufferPointer<FreeExtent>, from newIndex: Int) -> Int {
        let limit = min(old.count - oldIndex, new.count - newIndex)
        let block = 16
        var run = 0
        // Bytes equal exactly when fields are: four 64-bit words leave no padding to differ in.
        if MemoryLayout<FreeExtent>.size == 32, let oldBase = old.baseAddress, let newBase = new.baseAddress {
            while run + block <= limit,
                memcmp(oldBase + oldIndex + run, newBase + newIndex + run, block * MemoryLayout<FreeExtent>.stride) == 0
            {
                run += block
            }
        }
        while run < limit, old[oldIndex + run] == new[newIndex + run] { run += 1 }
        return max(run, 1)
    }

    /// Updates these changes (from `baseExtents`, sorted by start, to some free space) for `extent` leaving that
    /// free space: the result is what comparing the whole lists again gives, in O(log n) (plus moving the short
    /// arrays' tails).
    ///
    /// A free space holds one extent per start page, so an extent that leaves it is either one these changes
    /// added, or one the base holds as it is.
    mutating func remove(_ extent: FreeExtent, base baseExtents: [FreeExtent]) {
        let addedIndex = added.partitionIndex { $0.start >= extent.start }
        if addedIndex < added.count, added[addedIndex] == extent {
            added.remove(at: addedIndex)
        } else {
            removed.insert(extent.start, at: removed.partitionIndex { $0 >= extent.start })
        }
    }

    /// Updates these changes for `extent` joining the free space (no extent of it starts at `extent.start` now):
    /// when the base holds that very extent it was listed as removed, and now needs no entry at all.
    mutating func add(_ extent: FreeExtent, base baseExtents: [FreeExtent]) {
        let baseIndex = baseExtents.partitionIndex { $0.start >= extent.start }
        let removedIndex = removed.partitionIndex { $0 >= extent.start }
        if baseIndex < baseExtents.count, baseExtents[baseIndex] == extent, removedIndex < removed.count,
            removed[removedIndex] == extent.start
        {
            removed.remove(at: removedIndex)
        } else {
            added.insert(extent, at: added.partitionIndex { $0.start >= extent.start })
        }
    }

    /// Payload bytes for the changes with `removed` and `added` entries.
    static func byteCount(removed: Int, added: Int) -> Int { 24 + removed * 8 + added * FreeListCoding.entryByteCount }

    /// Payload bytes of these changes.
    var byteCount: Int { Self.byteCount(removed: removed.count, added: added.count) }

    /// Whether a commit should write the full list (of `fullByteCount` payload bytes) rather than changes of
    /// `changesByteCount` bytes: when the changes pass half the list (they save little), or pass a page and an
    /// eighth of the list (the list is then cheaper to rewrite once than the changes to carry on every commit).
    ///
    /// With `inline` (a commit through the commit log, whose changes go inline in its record's header page while
    /// a full list takes a page of its own), only when the changes pass half a page and an eighth of the list: a
    /// small list is then rewritten once its changes fill half the header page, not at every commit.
    static func prefersFullList(
        changesByteCount: Int, fullByteCount: Int, pageSize: Int, inline: Bool = false
    ) -> Bool {
        if inline { return changesByteCount > max(pageSize / 2, fullByteCount / 8) }
        return changesByteCount * 2 > fullByteCount
            || changesByteCount > max(pageSize - NodeHeader.byteCount, fullByteCount / 8)
    }

    /// Writes the changes into `payload`; the caller checks it holds `byteCount` bytes.
    func encode(into payload: UnsafeMutableRawBufferPointer) {
        guard let base = payload.baseAddress, payload.count >= byteCount else {
            preconditionFailure("a free-list changes node of \(payload.count) bytes cannot hold \(byteCount)")
        }
        base.setU64(self.base.rawValue, at: 0)
        base.setU64(UInt64(removed.count), at: 8)
        var offset = 16
        for start in removed {
            base.setU64(start, at: offset)
            offset += 8
        }
        base.setU64(UInt64(added.count), at: offset)
        offset += 8
        for extent in added {
            base.setU64(extent.start, at: offset)
            base.setU64(extent.count, at: offset + 8)
            base.setU64(extent.freedAt, at: offset + 16)
            base.setU64(extent.born, at: offset + 24)
            offset += FreeListCoding.entryByteCount
        }
    }

    /// The changes in `payload`, counts checked against its size and the base checked to be a node of the version.
    ///
    /// - Throws: `corruptFile` naming the changes node when a count does not fit or the base lies outside
    ///   `pageCount`.
    static func decode(_ payload: UnsafeRawBufferPointer, pageCount: UInt64, path: String, node: NodeRef) throws
        -> FreeListChanges
    {
        func damaged(_ detail: String) -> StrataError {
            .corruptFile(path: path, location: "free-list changes node \(node)", detail: detail)
        }
        guard payload.count >= 24, let base = payload.baseAddress else { throw damaged("the node is too short") }
        let baseRef = NodeRef(rawValue: base.u64(at: 0))
        guard baseRef.page >= 1, baseRef.page < pageCount else {
            throw damaged("its base list \(baseRef) lies outside the \(pageCount) pages")
        }
        let removedCount = base.u64(at: 8)
        guard removedCount <= UInt64((payload.count - 24) / 8) else {
            throw damaged("it claims \(removedCount) removed extents, more than fit")
        }
        var offset = 16
        var removed: [UInt64] = []
        removed.reserveCapacity(Int(removedCount))
        for _ in 0..<Int(removedCount) {
            removed.append(base.u64(at: offset))
            offset += 8
        }
        let addedCount = base.u64(at: offset)
        offset += 8
        guard addedCount <= UInt64((payload.count - offset) / FreeListCoding.entryByteCount) else {
            throw damaged("it claims \(addedCount) added extents, more than fit")
        }
        var added: [FreeExtent] = []
        added.reserveCapacity(Int(addedCount))
        for _ in 0..<Int(addedCount) {
            added.append(
                FreeExtent(
                    start: base.u64(at: offset), count: base.u64(at: offset + 8), freedAt: base.u64(at: offset + 16),
                    born: base.u64(at: offset + 24)))
            offset += FreeListCoding.entryByteCount
        }
        var changes = FreeListChanges(base: baseRef, from: [], to: [])
        changes.removed = removed
        changes.added = added
        return changes
    }

    /// The free extents: `baseExtents` without the removed ones, plus the added ones, sorted by start.
    ///
    /// - Throws: `corruptFile` naming the changes node when a removed start names no base extent.
    func applied(to baseExtents: [FreeExtent], path: String, node: NodeRef) throws -> [FreeExtent] {
        var gone = Set(removed)
        var extents: [FreeExtent] = []
        extents.reserveCapacity(baseExtents.count + added.count)
        for extent in baseExtents where gone.remove(extent.start) == nil { extents.append(extent) }
        if let stray = gone.first {
            throw StrataError.corruptFile(
                path: path, location: "free-list changes node \(node)",
                detail: "it removes an extent at page \(stray) that its base list \(base) does not hold")
        }
        extents.append(contentsOf: added)
        extents.sort { $0.start < $1.start }
        return extents
    }
}

/// A run of free pages, tagged with the version whose commit freed it.
struct FreeExtent: Equatable, Sendable {
    /// The first page.
    var start: UInt64
    /// How many pages.
    var count: UInt64
    /// The version that freed it: versions before it may still reach these pages.
    var freedAt: UInt64
    /// The oldest version that wrote a node on these pages: versions before it never reached them.
    var born: UInt64 = 0

    /// One past the last page.
    var end: UInt64 { start + count }
}

/// The free pages of one version, split into those a new node may take now and those still waiting.
///
/// Pages freed at version `v` are reachable from versions before `v`. They may be overwritten once
/// - no reader pins a version before `v`, and
/// - a power loss cannot bring back a version that reaches them: either `v` is durable, or the pages were
///   written after the last durable version `D` (`born > D`), which `D` therefore never reached. (A crash may
///   also leave an unsynced version newer than `D`; its commit record lists every node it needs since `D`, so if
///   one of them was overwritten, opening falls back to `D`.)
///
/// `release(pinLimit:durable:)` moves the extents that qualify from waiting to reusable.
struct FreeSpace: Sendable {
    /// Reusable extents, sorted by start page, adjacent ones merged.
    private(set) var reusable: [FreeExtent] = []
    /// Extents freed too recently to overwrite, sorted by start page: every commit computes its free-list changes
    /// over the extents in page order, and sorting hundreds of waiting extents twice a commit (a `.batched` run
    /// between syncs) took a seventh of a one-value commit's CPU.
    private(set) var waiting: [FreeExtent] = []

    /// Free space made of `extents`, all waiting until `release(pinLimit:durable:)` says which are reusable.
    init(extents: [FreeExtent] = []) {
        waiting = extents.sorted { $0.start < $1.start }
    }

    /// The changes that turn the full list `trackedBase` into this free space, kept up to date by every change
    /// below (`track`): a commit then writes them without comparing every extent with the full list, which cost
    /// a one-value commit O(free extents). Nil when not tracked, or once they grew past `trackingLimit` entries
    /// (a commit that changes that much writes a full list anyway, and updating long sorted arrays would cost
    /// more than comparing once).
    private(set) var changes: FreeListChanges?
    /// The full list `changes` apply to, sorted by start.
    private var trackedBase: [FreeExtent] = []
    /// Entries (removed plus added) past which tracking stops.
    static let trackingLimit = 256

    /// Starts tracking the changes from `base` (sorted by start); `changes` must turn `base` into this free space.
    mutating func track(_ base: FreeListBase, changes: FreeListChanges) {
        trackedBase = base.extents
        self.changes = changes
    }

    /// Records that `extent` left the free list (taken, or merged into a larger one).
    private mutating func noteRemoved(_ extent: FreeExtent) {
        guard changes != nil else { return }
        changes!.remove(extent, base: trackedBase)
        stopTrackingIfLong()
    }

    /// Records that `extent` joined the free list.
    private mutating func noteAdded(_ extent: FreeExtent) {
        guard changes != nil else { return }
        changes!.add(extent, base: trackedBase)
        stopTrackingIfLong()
    }

    private mutating func stopTrackingIfLong() {
        if let changes, changes.removed.count + changes.added.count > Self.trackingLimit {
            self.changes = nil
            trackedBase = []
        }
    }

    /// Every free extent, for the free-list node.
    var extents: [FreeExtent] { reusable + waiting }

    /// How many extents there are, reusable or waiting.
    var extentCount: Int { reusable.count + waiting.count }

    /// Every free extent, sorted by start page (the order free-list changes are computed in).
    var sortedExtents: [FreeExtent] {
        var merged: [FreeExtent] = []
        merged.reserveCapacity(reusable.count + waiting.count)
        var next = 0
        for extent in reusable {
            while next < waiting.count, waiting[next].start < extent.start {
                merged.append(waiting[next])
                next += 1
            }
            merged.append(extent)
        }
        merged.append(contentsOf: waiting[next...])
        return merged
    }

    /// Free pages in total (reusable or not).
    var pageCount: UInt64 { extents.reduce(0) { $0 + $1.count } }

    /// Makes reusable every waiting extent freed at or before `pinLimit` (no reader pins an older version) that
    /// the durable version `durable` cannot reach.
    mutating func release(pinLimit: UInt64, durable: UInt64) {
        func qualifies(_ extent: FreeExtent) -> Bool {
            extent.freedAt <= pinLimit && (extent.freedAt <= durable || extent.born > durable)
        }
        // One pass, compacting in place: under `.batched` something qualifies at nearly every transaction (the
        // last commit's record, born since the sync), and building a new array of hundreds of waiting extents
        // each time cost more than the test itself.
        var kept = 0
        for index in waiting.indices {
            let extent = waiting[index]
            if qualifies(extent) {
                noteRemoved(extent)
                insertReusable(extent)
            } else {
                if kept != index { waiting[kept] = extent }
                kept += 1
            }
        }
        if kept < waiting.count { waiting.removeLast(waiting.count - kept) }
    }

    /// Pages that cannot be reused yet under the same rule.
    func waitingPageCount(pinLimit: UInt64, durable: UInt64) -> UInt64 {
        waiting.filter { !($0.freedAt <= pinLimit && ($0.freedAt <= durable || $0.born > durable)) }
            .reduce(0) { $0 + $1.count }
    }

    /// Takes `pages` contiguous reusable pages (first fit); nil when no extent is large enough.
    ///
    /// - Complexity: O(n) in the number of reusable extents.
    mutating func take(pages: UInt64) -> UInt64? {
        take(pages: pages, fromExtentsOfAtLeast: pages)
    }

    /// Takes `pages` from the first reusable extent of at least `minimum` pages (first fit among the roomy ones);
    /// nil when there is none.
    mutating func take(pages: UInt64, fromExtentsOfAtLeast minimum: UInt64) -> UInt64? {
        let needed = max(pages, minimum)
        guard let index = reusable.firstIndex(where: { $0.count >= needed }) else { return nil }
        return take(pages: pages, from: index)
    }

    /// Takes `pages` from the front of the reusable extent that starts at `start`; nil when none starts there or
    /// it is shorter.
    mutating func take(pages: UInt64, at start: UInt64) -> UInt64? {
        let index = Self.position(of: start, in: reusable)
        guard index < reusable.count, reusable[index].start == start, reusable[index].count >= pages else { return nil }
        return take(pages: pages, from: index)
    }

    /// Takes `pages` from the front of reusable extent `index`, which holds at least that many.
    private mutating func take(pages: UInt64, from index: Int) -> UInt64 {
        let start = reusable[index].start
        noteRemoved(reusable[index])
        if reusable[index].count == pages {
            reusable.remove(at: index)
        } else {
            reusable[index].start += pages
            reusable[index].count -= pages
            noteAdded(reusable[index])
        }
        return start
    }

    /// Returns pages no committed version can reach (a node allocated and freed in the same transaction).
    mutating func giveBack(start: UInt64, count: UInt64) {
        insertReusable(FreeExtent(start: start, count: count, freedAt: 0))
    }

    /// Adds pages freed by the version being written; they wait until that version is durable and unpinned.
    mutating func retire(start: UInt64, count: UInt64, freedAt: UInt64, born: UInt64) {
        var index = Self.position(of: start, in: waiting)
        var merged = FreeExtent(start: start, count: count, freedAt: freedAt, born: born)
        // Runs freed by the same version merge with their neighbours (they wait for the same sync and readers).
        if index > 0, waiting[index - 1].freedAt == freedAt, waiting[index - 1].end == start {
            index -= 1
            noteRemoved(waiting[index])
            merged.start = waiting[index].start
            merged.count += waiting[index].count
            merged.born = min(merged.born, waiting[index].born)
            waiting.remove(at: index)
        }
        if index < waiting.count, waiting[index].freedAt == freedAt, merged.end == waiting[index].start {
            noteRemoved(waiting[index])
            merged.count += waiting[index].count
            merged.born = min(merged.born, waiting[index].born)
            waiting[index] = merged
        } else {
            waiting.insert(merged, at: index)
        }
        noteAdded(merged)
    }

    /// The index of the first extent of `extents` (sorted by start) starting at or after `page`.
    private static func position(of page: UInt64, in extents: [FreeExtent]) -> Int {
        extents.partitionIndex { $0.start >= page }
    }

    private mutating func insertReusable(_ extent: FreeExtent) {
        let low = Self.position(of: extent.start, in: reusable)
        var merged = extent
        var index = low
        if index > 0, reusable[index - 1].end == merged.start {
            index -= 1
            noteRemoved(reusable[index])
            merged = FreeExtent(
                start: reusable[index].start, count: reusable[index].count + merged.count,
                freedAt: max(reusable[index].freedAt, merged.freedAt), born: min(reusable[index].born, merged.born))
            reusable.remove(at: index)
        }
        if index < reusable.count, merged.end == reusable[index].start {
            noteRemoved(reusable[index])
            merged.count += reusable[index].count
            merged.freedAt = max(merged.freedAt, reusable[index].freedAt)
            merged.born = min(merged.born, reusable[index].born)
            reusable.remove(at: index)
        }
        reusable.insert(merged, at: index)
        noteAdded(merged)
    }
}

/// The free-list node's payload: `count: UInt64`, then `count` × (`start`, `count`, `freedAt`, `born`: UInt64),
/// then zero padding (the node is sized before its last entries are known).
enum FreeListCoding {
    static let entryByteCount = 32

    /// Payload bytes needed for `entries` extents.
    static func byteCount(entries: Int) -> Int { 8 + entries * entryByteCount }

    /// Writes `extents` into `payload`, which must be large enough.
    static func encode(_ extents: [FreeExtent], into payload: UnsafeMutableRawBufferPointer) {
        let base = payload.baseAddress!
        base.setU64(UInt64(extents.count), at: 0)
        for (index, extent) in extents.enumerated() {
            let offset = 8 + index * entryByteCount
            base.setU64(extent.start, at: offset)
            base.setU64(extent.count, at: offset + 8)
            base.setU64(extent.freedAt, at: offset + 16)
            base.setU64(extent.born, at: offset + 24)
        }
    }

    /// The extents in `payload`, each checked to lie inside pages 1 ..< `pageCount` and not to overlap another.
    ///
    /// - Throws: `corruptFile` naming the free-list node when an entry is out of range or overlaps.
    static func decode(_ payload: UnsafeRawBufferPointer, pageCount: UInt64, path: String, node: NodeRef) throws
        -> [FreeExtent]
    {
        func damaged(_ detail: String) -> StrataError {
            .corruptFile(path: path, location: "free list node \(node)", detail: detail)
        }
        guard payload.count >= 8, let base = payload.baseAddress else { throw damaged("the node is too short") }
        let count = base.u64(at: 0)
        guard count <= UInt64((payload.count - 8) / entryByteCount) else {
            throw damaged("it claims \(count) entries but holds room for \((payload.count - 8) / entryByteCount)")
        }
        var extents: [FreeExtent] = []
        extents.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = 8 + index * entryByteCount
            extents.append(
                FreeExtent(
                    start: base.u64(at: offset), count: base.u64(at: offset + 8), freedAt: base.u64(at: offset + 16),
                    born: base.u64(at: offset + 24)))
        }
        try check(extents, pageCount: pageCount, path: path, node: node)
        return extents
    }

    /// Checks that every extent lies inside pages 1 ..< `pageCount` and that no two overlap.
    ///
    /// - Throws: `corruptFile` naming `node` (the free-list node, or the changes node that produced them).
    static func check(_ extents: [FreeExtent], pageCount: UInt64, path: String, node: NodeRef) throws {
        func damaged(_ detail: String) -> StrataError {
            .corruptFile(path: path, location: "free list node \(node)", detail: detail)
        }
        for extent in extents {
            guard extent.start >= 1, extent.count >= 1, extent.start < pageCount, extent.count <= pageCount - extent.start
            else {
                throw damaged("an entry (pages \(extent.start)+\(extent.count)) lies outside the \(pageCount) pages")
            }
        }
        let sorted = extents.sorted { $0.start < $1.start }
        for (previous, next) in zip(sorted, sorted.dropFirst()) where previous.end > next.start {
            throw damaged("extents at pages \(previous.start) and \(next.start) overlap")
        }
    }
}

/// `NAME.strata.lock`: how the processes sharing a store coordinate.
///
/// Its shared memory holds the current version's meta slot (so readers never read a slot the writer may be
/// rewriting), the last durable version, the current commit-log generation, and a table of reader slots, one per
/// process, each holding the oldest version a reader of that process pins and the log generation it reads through.
/// None of it takes a lock to read or write (format 3; format 2 had no generation):
///
/// - The writer publishes a version by writing its meta slot into the copy the previous version does not use
///   (two copies, chosen by the version's parity), then storing the version in the publication word. A reader
///   loads the word, decodes the copy it selects, and loads the word again: unchanged, the copy was whole (the
///   writer rewrites a copy only after publishing the version after it).
/// - A reader pins as LMDB's readers do: it stores the version in its process's slot, then loads the publication
///   word again and starts over if a newer version was published meanwhile. A writer reads the slots after the
///   publication of its base version, so either it sees the pin, or the reader sees a version newer than its own
///   and pins again; a pin it misses is at least the writer's base, which the writer never frees under.
/// - The durable and synced marks only move forward, by compare-and-exchange.
///
/// Byte-range locks (released by the kernel when a process dies) give:
///
/// The first process to open the store (the one that recovers the file) reads the durable version the last
/// session recorded before resetting the shared state: a newest commit found damaged at or below it had been
/// acknowledged, and falling back past it is a lost commit (`StrataError.lostCommit`), not a torn one.
///
/// | byte | lock |
/// |---|---|
/// | 0 | lifetime: shared while a process has the store open; exclusive while the first opener recovers |
/// | 1 | writer: exclusive for the duration of a write transaction |
/// | 128 + i | liveness of reader slot i: exclusive, held by the owning process for as long as it has the store open |
///
/// Formats 1 (byte 2 a registration lock taken around every pin and publication) and 2 (no generation) are refused,
/// not joined: their processes would pin without a generation, or read the meta copy and pins where this format no
/// longer keeps them. A lock file either left behind by a session that ended is taken over by the next first opener.
final class LockFile: @unchecked Sendable {
    static let byteCount = 4096
    static let magic: UInt64 = 0x4B4C_4154_4152_5453  // "STRATALK"
    static let format: UInt32 = 3
    static let lifetimeByte = 0
    private static let writerByte = 1
    /// The liveness lock of reader slot i is on byte `livenessByte + i`.
    private static let livenessByte = 128
    private static let slotsOffset = 256
    private static let slotByteCount = 16
    static let slotCount = (byteCount - slotsOffset) / slotByteCount
    /// The publication word: the current version.
    private static let versionOffset = 16
    /// The durable word: the last durable version × 2 + the data-file slot holding it.
    private static let durableOffset = 24
    /// The generation word: the current commit-log generation (below 2^32; 0 while the store has no log).
    private static let generationOffset = 32
    /// Where the two meta copies go: the copy of version v at `metaCopyOffset + (v & 1) * metaCopyByteCount`, its
    /// 64-byte meta slot, then the data-file slot holding it (8 bytes), then 8 zero bytes.
    private static let metaCopyOffset = 64
    private static let metaCopyByteCount = 80

    let handle: LockFileHandle
    let path: String
    private var memory: UnsafeMutableRawPointer { handle.memory }

    init(handle: LockFileHandle, path: String) {
        self.handle = handle
        self.path = path
    }

    // MARK: Lifetime

    /// Takes the lifetime lock; returns true when no other process has the store open, in which case the caller
    /// must recover the file and call `initialize`, then `share`.
    ///
    /// The first opener invalidates the shared state at once: until it calls `initialize`, what the lock file
    /// holds was written by an earlier session (or before a power loss) and may name a version the file no longer
    /// has. Should the first opener die while recovering, a process that was waiting for the shared lock then sees
    /// an uninitialized file and recovers it itself, instead of building on the old session's state.
    func attach() throws -> Bool {
        if try handle.lock(byte: Self.lifetimeByte, exclusive: true, wait: false) {
            carryAcknowledgedVersion()
            previousSynced = lastSynced()
            invalidate()
            return true
        }
        _ = try handle.lock(byte: Self.lifetimeByte, exclusive: false, wait: true)
        return false
    }

    /// The newest version the lock file recorded as acknowledged (durable: its commit's sync returned) before
    /// this process attached as the first opener, or nil when it recorded none. Set by `attach`.
    ///
    /// The store compares it with the version its recovery opens at: a fallback past an acknowledged version is
    /// a lost commit, not a torn one (docs/ARCHITECTURE.md, "An acknowledged commit is never lost silently").
    private(set) var previousAcknowledgedVersion: UInt64?

    /// Reads the acknowledged version the last session left (its durable mark, or the one a first opener that
    /// refused to open carried over) into `previousAcknowledgedVersion`, and carries it in bytes 40-55, which
    /// `invalidate` leaves alone and only `initialize` clears: should this first opener refuse to open (a lost
    /// commit) or die before `initialize`, the next one still knows it.
    private func carryAcknowledgedVersion() {
        let shared = UnsafeRawPointer(memory)
        var acknowledged: UInt64?
        if isInitialized || leftByFormatTwo {
            acknowledged = durable.version
        } else if shared.u64(at: 0) == Self.magic && shared.u32(at: 8) == 1 {
            // Left by a session of format 1, which kept the durable version alone in these bytes.
            acknowledged = shared.u64(at: Self.durableOffset)
        } else if shared.u64(at: Self.carriedMarkOffset) == Self.carriedMark {
            acknowledged = shared.u64(at: Self.carriedVersionOffset)
        }
        // 0: the last session never knew a durable version (its first opener could not sync).
        guard let acknowledged, acknowledged > 0 else {
            previousAcknowledgedVersion = nil
            return
        }
        previousAcknowledgedVersion = acknowledged
        memory.setU64(acknowledged, at: Self.carriedVersionOffset)
        memory.setU64(Self.carriedMark, at: Self.carriedMarkOffset)
    }

    /// The meta slot of the version the last session left current, when a sync that started after that version's
    /// writes returned (`markSynced`): the file's pages up to that version are on disk, and a first opener that
    /// finds the file's newest whole version equal to it need not sync before building on it. Nil when the last
    /// session left a newer version unsynced (a `.batched` process killed, a `.none` writer), when the shared
    /// state was not initialized (a first opener died recovering; a lock file from before this mark existed reads
    /// 0 and never matches). Set by `attach`, with the data-file slot the version was written to.
    private(set) var previousSynced: (meta: MetaSlot, slot: Int)?

    /// Forgets `previousSynced`: the data file it described is about to be replaced (compaction on open).
    func forgetPreviousSyncedMeta() {
        previousSynced = nil
    }

    /// The current meta slot and its data-file slot, if the synced mark names its version.
    ///
    /// Also read from a lock file whose first opener refused to open or died before `initialize` (it carried the
    /// acknowledged version: `carryAcknowledgedVersion`): such an opener writes no other byte of the shared state,
    /// so the copies are still the last session's, and the next first opener needs them to write again a meta slot
    /// that page 0 lost (`Store.lostMetaSlot`) after a read-only open refused to.
    private func lastSynced() -> (meta: MetaSlot, slot: Int)? {
        let (meta, slot) = current
        let carried = UnsafeRawPointer(memory).u64(at: Self.carriedMarkOffset) == Self.carriedMark
        guard isInitialized || leftByFormatTwo || carried, let meta, meta.version > 0,
            UnsafeRawPointer(memory).u64(at: Self.syncedVersionOffset) == meta.version
        else { return nil }
        return (meta, slot)
    }

    /// Records that a sync which started after `version`'s writes has returned, unless a newer version already is
    /// recorded so. Unlike `markDurable`, never for a `.none` commit (which counts as durable without a sync).
    func markSynced(version: UInt64) {
        SharedWord(memory, at: Self.syncedVersionOffset).raise(to: version)
    }

    /// Where the newest version known synced goes (bytes 56-63; zero in lock files written before it existed).
    private static let syncedVersionOffset = 56

    /// Where a first opener carries the last session's acknowledged version across its recovery.
    private static let carriedVersionOffset = 40
    /// Where the mark that makes `carriedVersionOffset` valid goes.
    private static let carriedMarkOffset = 48
    /// `STRATAAK`: bytes 40-47 hold a carried acknowledged version.
    private static let carriedMark: UInt64 = 0x4B41_4154_4152_5453

    /// Marks the shared state as describing no file (clears the magic), so that the next process to attach
    /// recovers the file instead of trusting it. Call holding the lifetime lock exclusively: after attaching as
    /// the first opener, and before replacing the data file (compaction).
    func invalidate() {
        memory.setU64(0, at: 0)
    }

    /// Whether no other process has the store open: tries to turn this process's shared lifetime lock into an
    /// exclusive one without waiting (a failed try keeps the shared lock).
    func isAlone() -> Bool {
        (try? handle.lock(byte: Self.lifetimeByte, exclusive: true, wait: false)) ?? false
    }

    /// Turns the first opener's exclusive lifetime lock into a shared one, letting other processes in.
    func share() throws {
        _ = try handle.lock(byte: Self.lifetimeByte, exclusive: false, wait: true)
    }

    /// Resets the shared state to `meta`, clearing every reader slot (no other process is attached). `durable`
    /// says whether the caller synced the file; if not, the durable version is 0, unknown, and the first writer
    /// syncs before it writes (`Store.beginWrite`).
    func initialize(meta: MetaSlot, slot: Int, durable: Bool) {
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: Self.byteCount)
        memory.setU64(Self.magic, at: 0)
        memory.setU32(Self.format, at: 8)
        memory.setU32(UInt32(Self.slotCount), at: 12)
        publish(meta: meta, slot: slot, durable: durable)
    }

    /// Whether the shared state was written by this format (checked by processes that are not the first).
    var isInitialized: Bool { UnsafeRawPointer(memory).u64(at: 0) == Self.magic && UnsafeRawPointer(memory).u32(at: 8) == Self.format }

    /// Whether the shared state was initialized by format 2, whose words up to byte 31, synced mark and meta copies
    /// are laid out as in this format (a first opener reads them as this format's; only the generation word and the
    /// reader slots are new).
    private var leftByFormatTwo: Bool {
        UnsafeRawPointer(memory).u64(at: 0) == Self.magic && UnsafeRawPointer(memory).u32(at: 8) == 2
    }

    /// The format of shared state that another format of Strata initialized (nil when it is this format's, or not
    /// initialized): processes of two formats must not share a store.
    var foreignFormat: UInt32? {
        let shared = UnsafeRawPointer(memory)
        guard shared.u64(at: 0) == Self.magic, shared.u32(at: 8) != Self.format else { return nil }
        return shared.u32(at: 8)
    }

    // MARK: Versions

    /// The newest committed version's meta slot (nil if the shared copy is damaged) and which data-file slot
    /// holds it, read without a lock: the copy the publication word selects, taken again should the word change
    /// while it is read.
    var current: (meta: MetaSlot?, slot: Int) {
        let word = SharedWord(memory, at: Self.versionOffset)
        while true {
            let version = word.load()
            let copy = UnsafeRawPointer(memory) + Self.metaCopyOffset + Int(version & 1) * Self.metaCopyByteCount
            let meta = MetaSlot.decode(from: copy)
            let slot = Int(copy.u64(at: MetaSlot.byteCount) & 1)
            // The fence keeps the copy's reads before the word's second load (a load orders only what follows).
            SharedWord.fence()
            if word.load() == version { return (meta?.version == version ? meta : nil, slot) }
        }
    }

    /// The newest version known durable and the data-file slot holding it (one word, so never a mixed pair).
    var durable: (version: UInt64, slot: Int) {
        let word = SharedWord(memory, at: Self.durableOffset).load()
        return (word >> 1, Int(word & 1))
    }

    /// The current commit-log generation: readers pin it with their version, and a checkpoint's writer begins the
    /// next one (`publishGeneration`).
    var generation: UInt64 { SharedWord(memory, at: Self.generationOffset).load() }

    /// Makes `generation` the current commit-log generation. Call holding the writer lock (or as the first opener),
    /// after the generation's log file holds its header: a reader that loads it reads that file next.
    func publishGeneration(_ generation: UInt64) {
        precondition(generation <= UInt64(UInt32.max), "log generation \(generation) past 32 bits")
        SharedWord(memory, at: Self.generationOffset).store(generation)
    }

    /// The newest committed version, read without a lock: a cheap way for other threads and processes to notice
    /// commits, and what a reader checks after storing its pin (`setPin`).
    var latestVersion: UInt64 { latestVersionWord.load() }

    /// The shared word ``latestVersion`` loads: valid as long as the lock file stays mapped (while the store has a
    /// transaction open, or is not closed).
    var latestVersionWord: SharedWord { SharedWord(memory, at: Self.versionOffset) }

    /// Makes `meta` (stored in data-file slot `slot`) the current version; if `durable`, also the durable one.
    /// Call holding the writer lock (or as the first opener, alone): versions are published one writer at a time.
    func publish(meta: MetaSlot, slot: Int, durable: Bool) {
        // Readers of the version before the last one may still be reading this copy: they load the publication
        // word after reading it, and the fence orders the last publication before the bytes written here.
        SharedWord.fence()
        let copy = memory + Self.metaCopyOffset + Int(meta.version & 1) * Self.metaCopyByteCount
        meta.encode(into: copy)
        copy.setU64(UInt64(slot), at: MetaSlot.byteCount)
        SharedWord(memory, at: Self.versionOffset).store(meta.version)
        if durable { markDurable(version: meta.version, slot: slot) }
    }

    /// Records that `version`, in data-file slot `slot`, is durable, unless a newer version already is.
    ///
    /// The mark only moves forward. A process closing a `.batched` store reads the current version, syncs, and
    /// marks it without the writer lock, so another process may have committed and flushed a newer version in
    /// between. Commits write the slot that does not hold the durable version and recycle pages first written
    /// after it: an older mark would let the next commit overwrite the newer durable version's slot and pages, and
    /// a power loss would then lose a flushed commit.
    func markDurable(version: UInt64, slot: Int) {
        SharedWord(memory, at: Self.durableOffset).raise(to: version << 1 | UInt64(slot & 1)) { $0 >> 1 }
    }

    // MARK: Locks

    /// Takes the writer lock, waiting for it or not; returns whether it was taken.
    func lockWriter(waiting: Bool) throws -> Bool {
        try handle.lock(byte: Self.writerByte, exclusive: true, wait: waiting)
    }

    /// Releases the writer lock.
    func unlockWriter() { handle.unlock(byte: Self.writerByte) }

    // MARK: Reader slots

    /// Claims a reader slot for this process: the first whose liveness lock is free (never used, or its process
    /// died, which released the lock).
    ///
    /// - Throws: `StrataError.io` when every slot is held by a live process.
    func claimReaderSlot(processID: Int32) throws -> Int {
        for index in 0..<Self.slotCount where try handle.lock(byte: Self.livenessByte + index, exclusive: true, wait: false) {
            let slot = memory + Self.slotsOffset + index * Self.slotByteCount
            SharedWord(slot, at: 8).store(0)
            SharedWord(slot, at: 0).store(UInt64(UInt32(bitPattern: processID)))
            return index
        }
        throw StrataError.io(
            operation: "claim a reader slot in", path: path, errno: 0,
            message: "all \(Self.slotCount) reader slots are held by live processes; close the store in another process")
    }

    /// Releases this process's slot.
    func releaseReaderSlot(_ index: Int) {
        setPin(nil, slot: index)
        handle.unlock(byte: Self.livenessByte + index)
    }

    /// Stores this process's oldest pin (nil: none): its generation in the high half of the slot's pid word first,
    /// then its version, so that a writer that sees the version sees its generation too. Serialize this process's
    /// threads around it (the store's state lock); a reader then checks `latestVersion` and `generation` (see the
    /// type's notes).
    func setPin(_ pin: ReaderPin?, slot index: Int) {
        let slot = memory + Self.slotsOffset + index * Self.slotByteCount
        let pidWord = SharedWord(slot, at: 0)
        let processID = pidWord.load() & 0xFFFF_FFFF
        if let pin {
            precondition(pin.generation <= UInt64(UInt32.max), "log generation \(pin.generation) past 32 bits")
            pidWord.store(processID | pin.generation << 32)
        }
        SharedWord(slot, at: 8).store(pin?.version ?? 0)
    }

    /// Every pin (version and generation) of another live process. With `clearingDead`, also clears the slots of
    /// dead processes (their pins protect nothing any more): only the writer may, holding the writer lock, because
    /// clearing takes the slot's liveness lock for a moment, and two threads of one process both taking it would
    /// let a third process claim the slot and pin between one thread's release and the other's clearing.
    func pinsOfOtherProcesses(ownSlot: Int, clearingDead: Bool) -> [ReaderPin] {
        var pins: [ReaderPin] = []
        for index in 0..<Self.slotCount where index != ownSlot {
            let slot = memory + Self.slotsOffset + index * Self.slotByteCount
            let version = SharedWord(slot, at: 8).load()
            guard version != 0 else { continue }
            // Loaded after the version: the pinning process stored the generation first.
            let generation = SharedWord(slot, at: 0).load() >> 32
            guard !handle.isLockedByAnotherProcess(byte: Self.livenessByte + index) else {
                pins.append(ReaderPin(version: version, generation: generation))
                continue
            }
            // The owner died without ending its readers. A process claiming the slot meanwhile would hold its
            // liveness lock: clear the pin only while this process holds it, so that no new owner's pin is lost.
            if clearingDead, (try? handle.lock(byte: Self.livenessByte + index, exclusive: true, wait: false)) == true {
                SharedWord(slot, at: 8).store(0)
                handle.unlock(byte: Self.livenessByte + index)
            }
        }
        return pins
    }

    /// Drops every lock this process holds and closes the file.
    func detach() { handle.close() }
}

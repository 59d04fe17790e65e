/// `NAME.strata.lock`: how the processes sharing a store coordinate.
///
/// Its shared memory holds the current version's meta slot (so readers never read a slot the writer may be
/// rewriting), the last durable version, and a table of reader slots, one per process, each holding the oldest
/// version a reader of that process pins. Byte-range locks (released by the kernel when a process dies) give:
///
/// The first process to open the store (the one that recovers the file) reads the durable version the last
/// session recorded before resetting the shared state: a newest commit found damaged at or below it had been
/// acknowledged, and falling back past it is a lost commit (`StrataError.lostCommit`), not a torn one.
///
/// | byte | lock |
/// |---|---|
/// | 0 | lifetime: shared while a process has the store open; exclusive while the first opener recovers |
/// | 1 | writer: exclusive for the duration of a write transaction |
/// | 2 | registration: exclusive while a reader registers its pin or a writer publishes or reads the pins |
/// | 128 + i | liveness of reader slot i: exclusive, held by the owning process for as long as it has the store open |
final class LockFile: @unchecked Sendable {
    static let byteCount = 4096
    static let magic: UInt64 = 0x4B4C_4154_4152_5453  // "STRATALK"
    static let format: UInt32 = 1
    static let lifetimeByte = 0
    private static let writerByte = 1
    private static let registrationByte = 2
    private static let slotsOffset = 128
    private static let slotByteCount = 16
    static let slotCount = (byteCount - slotsOffset) / slotByteCount

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
            previousSyncedMeta = lastSyncedMeta()
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
        if isInitialized {
            acknowledged = durable.version
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
    /// 0 and never matches). Set by `attach`.
    private(set) var previousSyncedMeta: MetaSlot?

    /// Forgets `previousSyncedMeta`: the data file it described is about to be replaced (compaction on open).
    func forgetPreviousSyncedMeta() {
        previousSyncedMeta = nil
    }

    /// The current meta slot, if the synced mark names its version.
    private func lastSyncedMeta() -> MetaSlot? {
        guard isInitialized, let meta = current.meta, meta.version > 0,
            UnsafeRawPointer(memory).u64(at: Self.syncedVersionOffset) == meta.version
        else { return nil }
        return meta
    }

    /// Records that a sync which started after `version`'s writes has returned, unless a newer version already is
    /// recorded so. Unlike `markDurable`, never for a `.none` commit (which counts as durable without a sync).
    /// Call with the registration lock held, or from `Store.init` before other processes are let in.
    func markSynced(version: UInt64) {
        guard version > UnsafeRawPointer(memory).u64(at: Self.syncedVersionOffset) else { return }
        memory.setU64(version, at: Self.syncedVersionOffset)
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

    // MARK: Versions

    /// The newest committed version's meta slot (nil if the shared copy is damaged) and which data-file slot
    /// holds it.
    var current: (meta: MetaSlot?, slot: Int) {
        (MetaSlot.decode(from: UnsafeRawPointer(memory) + 64), Int(UnsafeRawPointer(memory).u64(at: 16) & 1))
    }

    /// The newest version known durable and the data-file slot holding it.
    var durable: (version: UInt64, slot: Int) {
        (UnsafeRawPointer(memory).u64(at: 24), Int(UnsafeRawPointer(memory).u64(at: 32) & 1))
    }

    /// The newest committed version, read without a lock (an aligned 8-byte load): a cheap way for other threads
    /// and processes to notice commits.
    var latestVersion: UInt64 { UnsafeRawPointer(memory).u64(at: 64 + 8) }

    /// Makes `meta` (stored in data-file slot `slot`) the current version; if `durable`, also the durable one.
    /// Call with the registration lock held.
    func publish(meta: MetaSlot, slot: Int, durable: Bool) {
        meta.encode(into: memory + 64)
        memory.setU64(UInt64(slot), at: 16)
        if durable { markDurable(version: meta.version, slot: slot) }
    }

    /// Records that `version`, in data-file slot `slot`, is durable, unless a newer version already is. Call with
    /// the registration lock held.
    ///
    /// The mark only moves forward. A process closing a `.batched` store reads the current version, syncs, and
    /// marks it without the writer lock, so another process may have committed and flushed a newer version in
    /// between. Commits write the slot that does not hold the durable version and recycle pages first written
    /// after it: an older mark would let the next commit overwrite the newer durable version's slot and pages, and
    /// a power loss would then lose a flushed commit.
    func markDurable(version: UInt64, slot: Int) {
        guard version > UnsafeRawPointer(memory).u64(at: 24) else { return }
        memory.setU64(version, at: 24)
        memory.setU64(UInt64(slot), at: 32)
    }

    // MARK: Locks

    /// Takes the writer lock, waiting for it or not; returns whether it was taken.
    func lockWriter(waiting: Bool) throws -> Bool {
        try handle.lock(byte: Self.writerByte, exclusive: true, wait: waiting)
    }

    /// Releases the writer lock.
    func unlockWriter() { handle.unlock(byte: Self.writerByte) }

    /// Runs `body` holding the registration lock. Callers serialize their own threads first (one process holds
    /// at most one lock on a byte, whatever its thread).
    func withRegistration<T>(_ body: () throws -> T) throws -> T {
        _ = try handle.lock(byte: Self.registrationByte, exclusive: true, wait: true)
        defer { handle.unlock(byte: Self.registrationByte) }
        return try body()
    }

    // MARK: Reader slots

    /// Claims a reader slot for this process: the first whose liveness lock is free (never used, or its process
    /// died, which released the lock).
    ///
    /// - Throws: `StrataError.io` when every slot is held by a live process.
    func claimReaderSlot(processID: Int32) throws -> Int {
        for index in 0..<Self.slotCount where try handle.lock(byte: Self.slotsOffset + index, exclusive: true, wait: false) {
            let slot = memory + Self.slotsOffset + index * Self.slotByteCount
            slot.setU64(UInt64(UInt32(bitPattern: processID)), at: 0)
            slot.setU64(0, at: 8)
            return index
        }
        throw StrataError.io(
            operation: "claim a reader slot in", path: path, errno: 0,
            message: "all \(Self.slotCount) reader slots are held by live processes; close the store in another process")
    }

    /// Releases this process's slot.
    func releaseReaderSlot(_ index: Int) {
        setPin(0, slot: index)
        handle.unlock(byte: Self.slotsOffset + index)
    }

    /// Stores the oldest version this process pins (0: none). Call with the registration lock held.
    func setPin(_ version: UInt64, slot index: Int) {
        (memory + Self.slotsOffset + index * Self.slotByteCount).setU64(version, at: 8)
    }

    /// Every version pinned by another live process, clearing the slots of dead ones. Call with the registration
    /// lock held.
    func pinsOfOtherProcesses(ownSlot: Int) -> [UInt64] {
        var pins: [UInt64] = []
        for index in 0..<Self.slotCount where index != ownSlot {
            let slot = memory + Self.slotsOffset + index * Self.slotByteCount
            let pin = UnsafeRawPointer(slot).u64(at: 8)
            guard pin != 0 else { continue }
            if handle.isLockedByAnotherProcess(byte: Self.slotsOffset + index) {
                pins.append(pin)
            } else {
                // The owner died without ending its readers: its pins protect nothing any more.
                slot.setU64(0, at: 8)
            }
        }
        return pins
    }

    /// Drops every lock this process holds and closes the file.
    func detach() { handle.close() }
}

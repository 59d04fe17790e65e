/// How hard a commit works to survive a power failure.
public enum Durability: Sendable, Hashable {
    /// Every commit is durable when `commit()` returns (one `fsync` per commit). The default.
    case full
    /// Commits are atomic and consistent, but synced only once `StoreOptions.batchInterval` seconds have passed
    /// since the last sync (sooner when the unsynced commits' bookkeeping grows past 8 KiB) and on close: a power
    /// failure loses at most the last interval's commits, never a commit's consistency.
    case batched
    /// Never synced: survives a crash of the process (the kernel has the writes) but not a power failure, which
    /// can leave the file unopenable. Each commit counts as durable (so its freed pages are reused at once), and
    /// other processes writing the same file with `.full` or `.batched` build on that: while any process writes
    /// with `.none`, the file has `.none`'s safety. For tests and bulk loads.
    case none
}

/// How a store is opened.
public struct StoreOptions: Sendable {
    /// How commits are made durable.
    public var durability: Durability = .full
    /// Longest time, in seconds, a `.batched` commit stays unsynced.
    public var batchInterval: Double = 0.1
    /// Open without writing; `beginWrite()` throws `StrataError.readOnly`. Where the lock file cannot be created
    /// or written (a read-only folder or file system), a read-only store opens with a private one instead and
    /// then cannot see other processes: nothing may write the file while it is open.
    public var readOnly = false
    /// Page size of a new file (a power of two from 2048 to 65536); an existing file keeps its own.
    public var pageSize = 4096
    /// Address space reserved for the file's mapping: the file may grow to this size (or twice its size at
    /// open, if larger) without a remap. Costs no memory.
    public var maximumFileSize: UInt64 = 1 << 40
    /// Bytes of new nodes a write transaction keeps in memory; past this, it writes its oldest ones to the file
    /// before commit (they were free pages, so a crash or rollback loses nothing), bounding a bulk load's memory.
    ///
    /// 1 MiB by default (64 full 16 KiB clusters). On strata-bench's 1M-object insert, 4 MiB held about 4 MB more
    /// peak anonymous memory and 2 MiB about 1.3 MB more; W1's and W1-indexed's CPU time moved by about 1 %,
    /// inside the spread between runs: the nodes are written once either way, only earlier, and a spill keeps the
    /// newest ones (`WriteTransaction.unspilledNewest`) for the table layer to change in place. A node changed
    /// again after it was spilled is copied, though: raise the threshold for large transactions that keep
    /// returning to more than a megabyte of the same clusters and index leaves.
    public var spillThreshold = 1 << 20
    /// The 64-byte key of an encrypted store (AES-256 key, then HMAC-SHA256 key), `nil` for a store that is not
    /// encrypted. A new file is created encrypted when a key is given; an existing file must be opened with the key
    /// it was created with (`StrataError.wrongEncryptionKey` otherwise). Keep the key out of the file system.
    public var encryptionKey: [UInt8]?
    /// Bytes of decrypted nodes an encrypted store keeps for reuse across transactions (8 MiB by default). Nodes
    /// a transaction has read stay in memory until it ends, whatever this says; more means fewer decryptions of
    /// the same nodes by successive transactions.
    public var decryptedCacheBytes = 8 << 20
    /// Open at the previous version when the newest commit in the file is damaged although it had been
    /// acknowledged (`StrataError.lostCommit` otherwise), accepting that its changes are gone; `openRecovery` and
    /// `StoreStatus.openRecovery` then name both versions. Off by default: restore a backup instead where one
    /// exists. A commit that never completed (a crash during it) is passed over either way, as it must be.
    public var acceptsLostCommits = false
    /// The permission bits of the files a new store creates (its data file and lock file, and the temporary files
    /// of creation and copies), before the process's umask clears some: `0o644` by default (owner reads and
    /// writes, everyone else reads; with the usual umask `022`, that is what the files get). Use `0o600` to keep
    /// other users of the machine out, or `0o660` for a group. Files that already exist keep their permissions;
    /// a lock file made by a process with other permissions keeps that process's. Every process that opens the
    /// store needs to read and write its lock file.
    public var filePermissions: UInt16 = 0o644
    /// The file system to use; `nil` means the real one (`POSIXStorage`). Tests pass recording or failing ones.
    package var io: StorageIO?
    /// Asked, when this process opens the file while no other process has it open, whether to compact it first:
    /// given the file's size and the bytes its current version uses, return `true` to rewrite it with only live
    /// data. `nil` (the default) never compacts. Ignored for read-only stores.
    public var compactOnOpen: (@Sendable (_ fileBytes: UInt64, _ usedBytes: UInt64) -> Bool)?
    /// Whether commits append to the commit log (`NAME.log`, `NAME.log2`) instead of writing their pages in
    /// place (docs/ARCHITECTURE.md, "Commit path"). Off, and not offered to apps, until the log is complete: every
    /// process that opens the store must agree, a read-only open and compaction on open are refused with it, and
    /// the store-level power-loss and kill-loop runs over both files are not written yet. For the log's tests.
    package var commitLog = false
    /// Bytes of log records past which a commit checkpoints (`LogWriter.defaultCheckpointThreshold`); tests make
    /// it small to run many checkpoints.
    package var logCheckpointThreshold = LogWriter.defaultCheckpointThreshold
    /// Whether a log commit logs a node it copied from a copy in the same log generation as the changed bytes
    /// (`LogDelta`) when they are few; clear stores of format 3 only (docs/ARCHITECTURE.md, "Commit path",
    /// "Deltas"). On with the log; tests turn it off to compare.
    package var logDeltas = true
    /// Whether deltas may also stand on the data file's pages (the node a transaction copied from the data file),
    /// under the reuse rule that keeps such pages: a page freed in log generation g is reused only once no reader
    /// pins g and g is checkpointed (docs/ARCHITECTURE.md, "Why readers stay right", point 7). With `logDeltas`.
    package var logDeltasOnDataFile = true

    /// Options with every default: `.full` durability, read-write, 4 KiB pages.
    public init(durability: Durability = .full, readOnly: Bool = false, pageSize: Int = 4096) {
        self.durability = durability
        self.readOnly = readOnly
        self.pageSize = pageSize
    }

    /// Options over the file system `io` (tests pass recording or failing ones; a store's own copies pass its
    /// file system on).
    package init(durability: Durability = .full, readOnly: Bool = false, pageSize: Int = 4096, io: StorageIO?) {
        self.init(durability: durability, readOnly: readOnly, pageSize: pageSize)
        self.io = io
    }
}

/// What a store's file holds right now: for showing users why a file grows (a long-lived reader pins an old
/// version) and when compacting would pay.
public struct StoreStatus: Sendable, Hashable {
    /// The newest committed version.
    public var currentVersion: UInt64
    /// The oldest version a live reader (in any process) pins, `nil` when no reader is open.
    public var oldestPinnedVersion: UInt64?
    /// Every version pinned by a reader of this process, oldest first.
    public var pinnedVersionsInProcess: [UInt64]
    /// The page size.
    public var pageSize: Int
    /// Bytes of the file on disk, including preallocated space past the last page in use.
    public var fileBytes: UInt64
    /// Bytes of pages the current version reaches (header, nodes, free list, commit record).
    public var usedBytes: UInt64
    /// Bytes of pages inside the current version's extent that are free (reusable now or once readers end).
    public var freeBytes: UInt64
    /// Bytes of free pages that cannot be reused yet because a reader pins an older version or the version
    /// that freed them is not yet durable.
    public var waitingBytes: UInt64
    /// What opening the file found when its newest commit was not whole (`Store.openRecovery`): the version
    /// opened instead, the one passed over and whether it had been acknowledged; `nil` when the newest commit
    /// opened (or when another process opened the file first and checked it).
    public var openRecovery: OpenRecovery? = nil
}

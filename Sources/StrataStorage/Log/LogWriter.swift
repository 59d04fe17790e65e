/// The writing side of a store's two commit log files: appends each commit to the current generation's file,
/// checkpoints the generation into the data file once its records pass `checkpointThreshold`, and begins the next
/// generation in the other file when no reader pins the generation that file holds (docs/ARCHITECTURE.md, "Commit
/// path", "Why readers stay right", point 3).
///
/// Generation g lives in `logs[g % 2]`. Not thread-safe: the store runs it under its writer lock, and publishes the
/// generation `checkpoint` returns in the lock file's generation word.
final class LogWriter {
    /// Bytes of records past which `needsCheckpoint` holds: about 110 one-value commits of 37 KB, and what the
    /// first opener after a crash reads at most (plus what a pinned reader kept).
    static let defaultCheckpointThreshold: UInt64 = 4 << 20

    private let logs: [CommitLog]
    private let data: StorageFile
    private let sealByteCount: Int
    /// Bytes of records past which `needsCheckpoint` holds.
    let checkpointThreshold: UInt64
    /// The generation appended to.
    private(set) var generation: UInt64
    /// The version the data file holds (its newest meta slot), which the generation's records after it build on.
    private(set) var dataVersion: UInt64
    /// The data file's meta slot holding `dataVersion`; a checkpoint writes the other one.
    private(set) var dataSlot: Int

    /// The current generation's log.
    var log: CommitLog { logs[Int(generation & 1)] }

    /// Bytes of the current generation's records already checkpointed: a reader that kept the generation from
    /// being left makes it grow, and the next checkpoint (which tries again to leave it) waits for as many bytes
    /// more.
    private var checkpointedBytes: UInt64 = 0

    /// Whether the current generation holds `checkpointThreshold` bytes of records not checkpointed yet.
    var needsCheckpoint: Bool { log.recordBytes - checkpointedBytes >= checkpointThreshold }

    /// A writer appending to `generation` (whose log has been reset), over a data file at `dataVersion` in
    /// `dataSlot`.
    init(
        logs: [CommitLog], data: StorageFile, sealByteCount: Int, generation: UInt64, dataVersion: UInt64,
        dataSlot: Int, checkpointThreshold: UInt64 = LogWriter.defaultCheckpointThreshold
    ) {
        precondition(logs.count == 2, "a store has two log files")
        self.logs = logs
        self.data = data
        self.sealByteCount = sealByteCount
        self.generation = generation
        self.dataVersion = dataVersion
        self.dataSlot = dataSlot
        self.checkpointThreshold = checkpointThreshold
    }

    /// Takes over the generation as another process's writer left it: appending to `generation` after version
    /// `newestVersion` at `appendOffset` (`LogReader.end`), over a data file at `dataVersion` in `dataSlot`.
    ///
    /// - Throws: what `CommitLog.adopt` throws.
    func follow(
        generation: UInt64, appendOffset: UInt64, newestVersion: UInt64, dataVersion: UInt64, dataSlot: Int
    ) throws {
        self.generation = generation
        try log.adopt(appendOffset: appendOffset, newestVersion: newestVersion)
        self.dataVersion = dataVersion
        self.dataSlot = dataSlot
        // What the other writer checkpointed of the generation is not known here: the next threshold counts from
        // the generation's start, so it comes sooner, never later.
        checkpointedBytes = 0
    }

    /// What the first opener does with the logs after the data file's `Recovery` chose `dataVersion` in
    /// `dataSlot`: checkpoints every whole record after it from the newest generation (the file whose header names
    /// the higher generation; every node read and hashed), then begins the generation after it in the other file
    /// and syncs it, so the next opener finds nothing to replay. A log file with no valid header counts as no
    /// generation.
    ///
    /// - Parameter logs: The two files' logs, opened with `verifyingNodes` (`CommitLog.init`).
    /// - Returns: The writer, appending to the new generation; its `dataVersion` is the version recovered.
    /// - Throws: `corruptFile` when the newest generation follows a version the data file does not have (the data
    ///   file was replaced or went back); `diskFull`, `io`.
    static func recover(
        logs: [CommitLog], data: StorageFile, dataVersion: UInt64, dataSlot: Int, sealByteCount: Int,
        checkpointThreshold: UInt64 = LogWriter.defaultCheckpointThreshold
    ) throws -> LogWriter {
        precondition(logs.count == 2, "a store has two log files")
        let newest = logs.indices.compactMap { index in logs[index].header.map { (index: index, header: $0) } }
            .max { $0.header.generation < $1.header.generation }
        var version = dataVersion
        var slot = dataSlot
        if let newest {
            let (index, header) = (newest.index, newest.header)
            guard header.checkpointed <= dataVersion else {
                throw StrataError.corruptFile(
                    path: logs[index].file.path, location: "commit log header (bytes 32-39)",
                    detail: "log generation \(header.generation) follows version \(header.checkpointed) of the data "
                        + "file, which holds version \(dataVersion): the data file was replaced by an older copy")
            }
            let outcome = try LogCheckpoint.run(
                log: logs[index], into: data, dataVersion: dataVersion, currentSlot: dataSlot,
                sealByteCount: sealByteCount, verifyingNodes: true)
            if let meta = outcome.meta {
                version = meta.version
                slot = 1 - dataSlot
            }
        }
        let next = newest.map { $0.header.generation + 1 } ?? 0
        let log = logs[Int(next & 1)]
        try log.reset(checkpointed: version, generation: next)
        try log.sync()
        return LogWriter(
            logs: logs, data: data, sealByteCount: sealByteCount, generation: next, dataVersion: version,
            dataSlot: slot, checkpointThreshold: checkpointThreshold)
    }

    /// Appends the record of `meta.version` to the current generation (`CommitLog.append`); syncs nothing.
    @discardableResult
    func append(
        meta: MetaSlot, nodes: [SealedNodes.Node], inPlace: [(page: UInt64, pages: UInt64, checksum: UInt64)] = [],
        inline: Set<UInt64> = [], deltas: [UInt64: [UInt8]] = [:]
    ) throws -> CommitLog.Located {
        try log.append(meta: meta, nodes: nodes, inPlace: inPlace, inline: inline, deltas: deltas)
    }

    /// Makes every append to the current generation durable.
    func sync() throws {
        try log.sync()
    }

    /// Checkpoints the current generation's records after the data file's version, then begins the next
    /// generation in the other file when `canBeginGeneration` allows it.
    ///
    /// - Parameters:
    ///   - oldestPinnedGeneration: The oldest generation any reader of any process pins (nil: none).
    ///   - mapping: The current generation's file mapped (`LogReader.mapping`), for the copies to be written from it.
    ///   - indexed: This process's index of the generation and the newest meta slot (`LogCheckpoint.run`).
    /// - Returns: The generation begun, for the caller to publish; nil when the current one goes on (a reader
    ///   still pins the generation the other file holds).
    /// - Throws: `diskFull`, `io` (a failed sync: what the disk holds is unknown, refuse writes).
    func checkpoint(
        oldestPinnedGeneration: UInt64?, mapping: (base: UnsafeRawPointer, mappedBytes: UInt64)? = nil,
        indexed: (index: LogIndex, newest: MetaSlot)? = nil
    ) throws -> UInt64? {
        let outcome = try LogCheckpoint.run(
            log: log, into: data, dataVersion: dataVersion, currentSlot: dataSlot, sealByteCount: sealByteCount,
            verifyingNodes: false, mapping: mapping, indexed: indexed)
        if let meta = outcome.meta {
            dataVersion = meta.version
            dataSlot = 1 - dataSlot
        }
        checkpointedBytes = log.recordBytes
        guard Self.canBeginGeneration(after: generation, oldestPinned: oldestPinnedGeneration) else { return nil }
        let next = generation + 1
        try logs[Int(next & 1)].reset(checkpointed: dataVersion, generation: next)
        generation = next
        checkpointedBytes = 0
        return next
    }

    /// The data file's version generation `generation` follows (its header's `checkpointed`), when one of the two
    /// files holds that generation's header as this process last read or wrote it; nil otherwise.
    func checkpointedVersion(of generation: UInt64) -> UInt64? {
        guard let header = logs[Int(generation & 1)].header, header.generation == generation else { return nil }
        return header.checkpointed
    }

    /// Whether generation `current` + 1 may begin: its file holds `current` − 1, which no reader may pin any more
    /// (readers pin the generation current when they began, so none joins `current` − 1 again).
    static func canBeginGeneration(after current: UInt64, oldestPinned: UInt64?) -> Bool {
        guard let oldestPinned else { return true }
        return oldestPinned >= current
    }
}

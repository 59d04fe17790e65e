/// The store's use of the commit log (`StoreOptions.commitLog`; docs/ARCHITECTURE.md, "Commit path"): opening it
/// (the first opener's replay), appending commits, syncing it, and the checkpoints that bring the data file up to
/// date after a commit, before a copy or a verification, and at the last close.
///
/// The writing side (`logWriter`) is used under the writer lock only; the reading side (`logReader`) by every
/// reader and the writer.
extension Store {
    /// What the first opener of a store with a commit log settles on: the version the data file holds after the
    /// log was replayed into it, its meta slot, what the data file's own check rejected, and the writer.
    struct LogOpening {
        var choice: Recovery.Choice
        var writer: LogWriter
    }

    /// The first opener's recovery with a commit log: chooses the data file's version the newest log generation
    /// builds on, replays the generation's whole records after it into the data file (every node read and hashed)
    /// and begins the next generation (`LogWriter.recover`); with nothing to replay (a store closed cleanly, whose
    /// newest generation is empty) it reads the two headers and that generation's first record header only, and
    /// syncs nothing. A store without a log yet (new, or written before the log) begins generation 0.
    ///
    /// The data file's version is chosen from the log's side first: a slot at or after the version the
    /// generation follows, with records after it, is taken without checking its nodes, since a checkpoint
    /// interrupted by a crash may have overwritten pages that version reaches, and the replay writes each of them
    /// again (a checkpoint writes only the newest copies of the pages the records after the data file's version
    /// hold, which the replay writes too). Without records after it, the slot must be whole (`Recovery`).
    ///
    /// - Throws: `corruptFile` when the log follows a version the data file does not have; what `Recovery` and
    ///   the replay throw.
    static func openLog(
        files: [StorageFile], pagedFile: PagedFile, checkpointThreshold: UInt64
    ) throws -> LogOpening {
        let seal = pagedFile.sealByteCount
        let preallocation = CommitLog.preallocatedBytes(checkpointThreshold: checkpointThreshold)
        var logs = try files.map {
            try CommitLog(
                file: $0, pageSize: pagedFile.pageSize, preallocatedBytes: preallocation, sealByteCount: seal,
                verifyingNodes: false, findingEnd: false)
        }
        let newest = logs.indices.compactMap { index in logs[index].header.map { (index: index, header: $0) } }
            .max { $0.header.generation < $1.header.generation }
        guard let newest else {
            let choice = try Recovery.choose(in: pagedFile)
            try logs[0].reset(checkpointed: choice.meta.version, generation: 0)
            try logs[0].sync()
            let writer = LogWriter(
                logs: logs, data: pagedFile.file, sealByteCount: seal, generation: 0, dataVersion: choice.meta.version,
                dataSlot: choice.slot, checkpointThreshold: checkpointThreshold)
            return LogOpening(choice: choice, writer: writer)
        }
        // The newest generation's end, every node of its records hashed (a crash may have torn the last append).
        logs[newest.index] = try CommitLog(
            file: files[newest.index], pageSize: pagedFile.pageSize, preallocatedBytes: preallocation,
            sealByteCount: seal, verifyingNodes: true, data: pagedFile.file)
        let log = logs[newest.index]
        let choice = try chooseDataVersion(
            in: pagedFile, following: newest.header.checkpointed, logEnd: log.newestVersion)
        guard choice.meta.version >= newest.header.checkpointed else {
            throw StrataError.corruptFile(
                path: log.file.path, location: "commit log header (bytes 32-39)",
                detail: "log generation \(newest.header.generation) follows version \(newest.header.checkpointed) of "
                    + "the data file, whose newest whole version is \(choice.meta.version): the data file was replaced "
                    + "by an older copy")
        }
        guard log.newestVersion > choice.meta.version else {
            let writer = LogWriter(
                logs: logs, data: pagedFile.file, sealByteCount: seal, generation: newest.header.generation,
                dataVersion: choice.meta.version, dataSlot: choice.slot, checkpointThreshold: checkpointThreshold)
            return LogOpening(choice: choice, writer: writer)
        }
        let writer = try LogWriter.recover(
            logs: logs, data: pagedFile.file, dataVersion: choice.meta.version, dataSlot: choice.slot,
            sealByteCount: seal, checkpointThreshold: checkpointThreshold)
        guard let meta = pagedFile.meta(slot: writer.dataSlot), meta.version == writer.dataVersion else {
            throw StrataError.corruptFile(
                path: pagedFile.path, location: "meta slot \(writer.dataSlot)",
                detail: "the replay of the commit log wrote version \(writer.dataVersion) there, and it does not "
                    + "read back")
        }
        return LogOpening(choice: Recovery.Choice(meta: meta, slot: writer.dataSlot, rejected: nil), writer: writer)
    }

    /// The data file's version the log's replay starts from: the newest meta slot at or after `checkpointed` (the
    /// version the newest generation follows) that the log has records after (`logEnd` is its newest whole
    /// record), else the newest such slot that is whole, else what `Recovery` chooses.
    private static func chooseDataVersion(
        in pagedFile: PagedFile, following checkpointed: UInt64, logEnd: UInt64
    ) throws -> Recovery.Choice {
        let fileSize = try pagedFile.file.size()
        let candidates = pagedFile.decodedMetaSlots().filter { $0.meta.version >= checkpointed }
        for candidate in candidates {
            if logEnd > candidate.meta.version
                || Recovery.problem(with: candidate.meta, in: pagedFile, fileSize: fileSize) == nil
            {
                return Recovery.Choice(meta: candidate.meta, slot: candidate.slot, rejected: nil)
            }
        }
        return try Recovery.choose(in: pagedFile)
    }

    /// Opens the two log files of the store at `path` (creating them for a writer).
    static func openLogFiles(path: String, io: StorageIO) throws -> [StorageFile] {
        var files: [StorageFile] = []
        do {
            for logPath in logPaths(for: path) {
                // Creating is exclusive (`POSIXStorage`): open the file when it exists, else create it.
                let exists = io.fileExists(at: logPath)
                files.append(try io.openFile(at: logPath, create: !exists, readOnly: false))
            }
        } catch {
            for file in files { file.close() }
            throw error
        }
        return files
    }

    /// Address space each log file's mapping reserves in a reader (`LogReader.mappedBytes`): a generation kept
    /// growing by a pinned reader can be read up to this.
    static func logMappedBytes(options: StoreOptions) -> UInt64 {
        min(options.maximumFileSize, 64 << 30)
    }

    // MARK: Writing

    /// Brings this process's log writer to the generation and end another process's commits left, when this
    /// process did not write the current version (`ownsLastCommit`). Call holding the writer lock.
    ///
    /// - Throws: what reading the log and the data file's meta slots throws; `corruptFile` when the data file has
    ///   no meta slot.
    func followLog(base meta: MetaSlot, ownsLastCommit: Bool) throws {
        guard let logReader, let logFiles, !ownsLastCommit || logWriter == nil else { return }
        let generation = lockFile.generation
        let end = try logReader.end(generation: generation, version: meta.version)
        // The data file's meta slots are written by checkpoints only: the newer one is the version checkpointed.
        guard let data = pagedFile.decodedMetaSlots().first else {
            throw StrataError.corruptFile(
                path: path, location: "meta slots (page 0)",
                detail: "neither meta slot decodes while the store is open")
        }
        if logWriter == nil {
            let logs = try logFiles.map {
                try CommitLog(
                    file: $0, pageSize: pageSize,
                    preallocatedBytes: CommitLog.preallocatedBytes(checkpointThreshold: options.logCheckpointThreshold),
                    sealByteCount: pagedFile.sealByteCount, verifyingNodes: false, findingEnd: false)
            }
            logWriter = LogWriter(
                logs: logs, data: pagedFile.file, sealByteCount: pagedFile.sealByteCount, generation: generation,
                dataVersion: data.meta.version, dataSlot: data.slot,
                checkpointThreshold: options.logCheckpointThreshold)
        }
        try logWriter?.follow(
            generation: generation, appendOffset: end, newestVersion: meta.version, dataVersion: data.meta.version,
            dataSlot: data.slot)
    }

    /// Appends a commit's record to the log: its sealed nodes (those on a page in `inline` inside the record's
    /// header pages, those in `deltas` as their deltas), and the spilled nodes already written in place in the
    /// data file (`inPlace`). Syncs nothing. Call holding the writer lock.
    ///
    /// - Returns: The record, where it was written, and the generation it was appended to, for
    ///   `noteAppendedCommit` once the version is published.
    func appendCommit(
        meta: MetaSlot, nodes: SealedNodes, inPlace: [(page: UInt64, pages: UInt64, checksum: UInt64)],
        inline: Set<UInt64>, deltas: [UInt64: [UInt8]] = [:]
    ) throws -> (located: CommitLog.Located, generation: UInt64) {
        guard let logWriter else { preconditionFailure("a log append in a store without a log writer") }
        let located = try logWriter.append(
            meta: meta, nodes: nodes.sortedByPage(), inPlace: inPlace, inline: inline, deltas: deltas)
        return (located, logWriter.generation)
    }

    /// Hands a published commit's record to this process's log reader (`LogReader.noteAppended`), so the next
    /// transaction's view need not read it back from the file. Call holding the writer lock, after `publish`.
    func noteAppendedCommit(_ appended: (located: CommitLog.Located, generation: UInt64)) {
        logReader?.noteAppended(appended.located, generation: appended.generation, pageSize: pageSize)
    }

    /// Syncs the log file of the current generation: what makes log commits durable. Call holding the writer
    /// lock (the generation does not change under it).
    func syncLog() throws {
        guard let logFiles else { return }
        try logFiles[Int(lockFile.generation & 1)].sync()
    }

    /// Syncs the file that makes commits durable: the commit log's current file when the store has a log, else the
    /// data file. Records nothing; call holding the writer lock, or at the close.
    func syncCommitsFile() throws {
        if logFiles != nil { try syncLog() } else { try pagedFile.file.sync() }
    }

    /// Checkpoints when the log asks for it after a commit (`LogWriter.needsCheckpoint`), or always with `force`,
    /// and publishes the generation begun. With `toReuse` (pages wait for the generation's end to be reused, and
    /// many do), it also checkpoints when that begins the next generation and the generation holds a 32nd of the
    /// threshold, not when a reader keeps the generation going.
    /// Call holding the writer lock, after the commit was published, and not `stateLock`.
    ///
    /// - Throws: the checkpoint's error, after which the store refuses writes until reopened (a failed sync
    ///   leaves what the disk holds unknown).
    func checkpointLog(force: Bool, toReuse: Bool = false) throws {
        guard let logWriter, force || toReuse || logWriter.needsCheckpoint else { return }
        let oldest = stateLock.withLock { () -> UInt64? in
            var generations = lockFile.pinsOfOtherProcesses(ownSlot: readerSlot, clearingDead: true).map(\.generation)
            if let own = pins.oldest?.generation { generations.append(own) }
            return generations.min()
        }
        // For reuse only when the next generation begins, and not before the generation holds a 32nd of the
        // threshold (pages a reader pins wait whatever the generation: checkpointing would not free them).
        if !force && !logWriter.needsCheckpoint
            && (logWriter.log.recordBytes < logWriter.checkpointThreshold / 32
                || !LogWriter.canBeginGeneration(after: logWriter.generation, oldestPinned: oldest))
        {
            return
        }
        do {
            let current = try currentMeta()
            try runCheckpoint(logWriter, oldestPinnedGeneration: oldest, current: current)
            stateLock.withLock { markCheckpointed(current, slot: logWriter.dataSlot) }
        } catch {
            stateLock.withLock { refusesWrites = true }
            throw error
        }
    }

    /// Checkpoints the log into the data file and publishes the generation begun (`LogWriter.checkpoint`). A
    /// generation with no records and a data file at the current version has nothing to checkpoint or leave.
    private func runCheckpoint(_ logWriter: LogWriter, oldestPinnedGeneration: UInt64?, current: MetaSlot) throws {
        if logWriter.log.recordBytes == 0 && logWriter.dataVersion == current.version { return }
        let mapping = logReader?.mapping(generation: logWriter.generation)
        // The reader's index of the generation reaches the current version (this process's appends are noted in
        // it; another process's are read here): the checkpoint need not read the record headers again.
        let indexed = try logReader.map {
            (index: try $0.view(generation: logWriter.generation, version: current.version).index, newest: current)
        }
        if let generation = try logWriter.checkpoint(
            oldestPinnedGeneration: oldestPinnedGeneration, mapping: mapping, indexed: indexed)
        {
            lockFile.publishGeneration(generation)
        }
        guard logWriter.dataVersion == current.version else {
            throw StrataError.corruptFile(
                path: logWriter.log.file.path, location: "commit log generation \(logWriter.generation)",
                detail: "a checkpoint brought the data file to version \(logWriter.dataVersion), not to the current "
                    + "version \(current.version): the log ends before a published version")
        }
    }

    /// Records that `current` is durable, the log having been synced by a checkpoint. Call with `stateLock` held.
    private func markCheckpointed(_ current: MetaSlot, slot: Int) {
        lockFile.markDurable(version: current.version, slot: slot)
        if options.durability != .none { lockFile.markSynced(version: current.version) }
    }

    /// Runs `body` with the data file holding the current version by itself (checkpointed, under the writer lock),
    /// and a reader of that version: for what reads the data file's pages directly (a copy, a verification). A
    /// store without a log just begins a reader.
    func withCheckpointedReader<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        guard logWriter != nil || logReader != nil, !options.readOnly else {
            let reader = try beginRead()
            defer { reader.end() }
            return try body(reader)
        }
        writerGate.enter()
        let reader: ReadTransaction
        do {
            defer { writerGate.leave() }
            guard try lockFile.lockWriter(waiting: true) else { throw closedError() }
            defer { lockFile.unlockWriter() }
            let meta = try currentMeta()
            try followLog(base: meta, ownsLastCommit: stateLock.withLock { writeCache?.version == meta.version })
            try checkpointLog(force: true)
            // Pinned before the writer lock goes: no commit comes between the checkpoint and the pin.
            reader = try beginRead()
        }
        defer { reader.end() }
        return try body(reader)
    }

    /// The last close's checkpoint: the data file brought to the current version and the next generation begun
    /// and synced, so the next open finds an empty log and reads nothing of it. Call with `stateLock` held, no
    /// transaction open and no other process attached (no reader pins any generation).
    func checkpointAtLastClose() {
        guard logReader != nil, !options.readOnly, !refusesWrites else { return }
        guard (try? lockFile.lockWriter(waiting: true)) == true else { return }
        defer { lockFile.unlockWriter() }
        do {
            let current = try currentMeta()
            if logWriter == nil || writeCache?.version != current.version {
                try followLog(base: current, ownsLastCommit: false)
            }
            guard let logWriter else { return }
            try runCheckpoint(logWriter, oldestPinnedGeneration: nil, current: current)
            try syncLog()
            markCheckpointed(current, slot: logWriter.dataSlot)
        } catch {
            // The log still holds every commit: the next first opener replays it.
            refusesWrites = true
        }
    }
}

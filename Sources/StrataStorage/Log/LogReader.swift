/// One process's reading side of a store's two commit log files: their mappings, and the index of the generation
/// it last read through, extended from the record headers appended since it last looked.
///
/// Generation g lives in `files[g % 2]` (`NAME.strata.log` for even generations, `NAME.strata.log2` for odd ones):
/// a checkpoint of all of g lets the writer begin g + 1 in the other file once no reader pins g − 1, so the file a
/// pinned generation lives in is never reset under its readers. A reader pins its generation and version first
/// (`Store.beginRead`), then asks for its `view`: every record up to the version it pinned was appended before that
/// version was published, and the generation's header before the generation was.
///
/// Thread-safe: views are taken under a lock, and a view is a snapshot that later extensions do not change.
final class LogReader: @unchecked Sendable {
    /// The two log files' logs, read only (headers and record headers; never appended to by this object).
    private let logs: [CommitLog]
    /// Each file's mapping, reserving `mappedBytes` of address space.
    private let mappings: [UnsafeRawPointer]
    /// Bytes each mapping reserves.
    let mappedBytes: UInt64
    private let sealByteCount: Int
    /// The data file, which deltas may stand on (nil: only on the log's copies).
    private let data: StorageFile?
    private let lock = ThreadLock()
    /// The generation `index` describes; nil before the first view.
    private var generation: UInt64?
    private var index = LogIndex()
    /// Where the record after `index.newestVersion` starts in the generation's file.
    private var nextOffset: UInt64 = 0
    /// The generation's delta copies made whole; a new one with each generation (views keep theirs alive).
    private var materializer: LogMaterializer?

    /// Opens the reading side over the even and odd generations' files (`files[0]`, `files[1]`), which must exist.
    ///
    /// - Parameters:
    ///   - mappedBytes: Address space each mapping reserves: a generation longer than that cannot be read (a
    ///     reader pinned across many checkpoints lets a log grow; `view` then throws).
    ///   - sealByteCount: Bytes an encrypted node carries after its payload (0 for a clear store).
    ///   - data: The data file, whose pages deltas may stand on.
    /// - Throws: what opening and mapping the files throws; `corruptFile` for a file that is not a log of this
    ///   store's page size.
    init(files: [StorageFile], pageSize: Int, mappedBytes: UInt64, sealByteCount: Int, data: StorageFile? = nil) throws {
        self.data = data
        precondition(files.count == 2, "a store has two log files")
        logs = try files.map {
            try CommitLog(
                file: $0, pageSize: pageSize, sealByteCount: sealByteCount, verifyingNodes: false, findingEnd: false)
        }
        mappings = try files.map { try $0.map(reservingBytes: mappedBytes) }
        self.mappedBytes = mappedBytes
        self.sealByteCount = sealByteCount
    }

    /// Where the record after `version` goes in `generation`'s file, and the index extended to it (as `view`
    /// does): what a writer needs to append after another process's commits.
    ///
    /// - Throws: what `view` throws.
    func end(generation: UInt64, version: UInt64) throws -> UInt64 {
        _ = try view(generation: generation, version: version)
        return lock.withLock { nextOffset }
    }

    /// Extends the index with a record this process's writer appended to `generation` and published, so that the
    /// next view does not read its header back from the file (two reads and a size check per commit, 5 % of a
    /// log-on W5 commit's CPU). Changes nothing unless the index describes that generation and ends at the version
    /// before the record's; a view then reads the header from the file as it does for other processes' records.
    func noteAppended(_ located: CommitLog.Located, generation: UInt64, pageSize: Int) {
        lock.withLock {
            guard self.generation == generation, located.record.salt == index.salt,
                located.record.version == index.newestVersion + 1, located.offset == nextOffset
            else { return }
            index.extend(with: [located], pageSize: pageSize)
            nextOffset = located.offset + located.record.byteCount(pageSize: pageSize)
        }
    }

    /// The mapping of the file `generation` lives in and the bytes it reserves: what a checkpoint writes copies
    /// from (`LogCheckpoint.run`).
    func mapping(generation: UInt64) -> (base: UnsafeRawPointer, mappedBytes: UInt64) {
        (mappings[Int(generation & 1)], mappedBytes)
    }

    /// The view a reader that pinned `version` through `generation` reads with: the index of that generation
    /// extended up to `version`, and the mapping of its file.
    ///
    /// - Throws: `corruptFile` when the generation's file does not hold that generation, or ends before `version`
    ///   although the version was published (the file was changed under the store); `io`.
    func view(generation: UInt64, version: UInt64) throws -> LogView {
        try lock.withLock {
            let file = Int(generation & 1)
            let log = logs[file]
            if self.generation != generation {
                try log.refreshHeader()
                guard let header = log.header, header.generation == generation else {
                    throw StrataError.corruptFile(
                        path: log.file.path, location: "commit log header (bytes 40-47)",
                        detail: "it does not hold log generation \(generation), which the lock file names as pinned; "
                            + "the file was replaced or damaged while the store was open")
                }
                index.reset(salt: header.salt, checkpointed: header.checkpointed)
                nextOffset = log.recordsStart
                self.generation = generation
                materializer = LogMaterializer(
                    source: .mapped(base: mappings[file], mappedBytes: mappedBytes), data: data, pageSize: log.pageSize,
                    path: log.file.path)
            }
            if version > index.newestVersion {
                let records = try log.records(
                    after: index.newestVersion, sealByteCount: sealByteCount, verifyingNodes: false,
                    from: (nextOffset, index.newestVersion + 1), through: version)
                index.extend(with: records, pageSize: log.pageSize)
                if let last = records.last { nextOffset = last.offset + last.record.byteCount(pageSize: log.pageSize) }
                guard index.newestVersion == version else {
                    throw StrataError.corruptFile(
                        path: log.file.path, location: "commit log record at byte \(nextOffset)",
                        detail: "log generation \(generation) ends at version \(index.newestVersion), before the "
                            + "published version \(version): the log was damaged or replaced while the store was open")
                }
            }
            guard let materializer else { preconditionFailure("a log view before its generation was read") }
            return LogView(
                generation: generation, index: index, base: mappings[file], mappedBytes: mappedBytes,
                materializer: materializer)
        }
    }
}

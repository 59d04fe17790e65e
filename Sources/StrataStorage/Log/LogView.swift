/// What a reader of one version reads the commit log through: a snapshot of its process's index of the generation
/// it pins (`LogReader.view`), and the mapping of that generation's log file.
///
/// A page the index has a copy of, written by a version up to the one read, is read from the log mapping; any other
/// page from the data file (docs/ARCHITECTURE.md, "Commit path", "Why readers stay right"). The snapshot never
/// changes, and the log file's bytes it points at do not change while the reader pins its generation.
struct LogView: @unchecked Sendable {
    /// The generation read through.
    let generation: UInt64
    /// The process's index of the generation, as it was when the view was taken (covering the version read).
    let index: LogIndex
    /// The log file's mapping; it never moves while the store is open.
    let base: UnsafeRawPointer
    /// Bytes of address space the mapping reserves: no copy lies beyond them.
    let mappedBytes: UInt64
    /// Makes the generation's delta copies whole, shared by every view of the generation in this process.
    let materializer: LogMaterializer

    /// The copy of `page` a reader of `version` reads from the log: nil when it reads the data file (the generation
    /// holds no copy up to that version, or its newest is in place in the data file).
    @inline(__always)
    func copy(of page: UInt64, atMost version: UInt64) -> LogIndex.Location? {
        guard let location = index.location(of: page, atMost: version), !location.isInPlace else { return nil }
        return location
    }

    /// Where the copy `location` of `page` starts: in the log's mapping, or for a delta the node made from it.
    ///
    /// - Throws: `corruptFile` when a delta or its base is damaged (`LogMaterializer`).
    func start(of page: UInt64, _ location: LogIndex.Location) throws -> UnsafeRawPointer {
        guard location.isDelta else { return base + Int(location.offset) }
        return try materializer.node(page: page, location: location, index: index)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store file mapped into memory: bounds-checked, checksum-verified access to nodes in place.
///
/// Checksums are verified once per node per process, not on every read: `verifiedVersions[page]` remembers the
/// version whose node was verified on that page. A committed node never changes while a version that reaches it
/// is pinned, and a node written later on the same page carries a newer version in its header, so a match means
/// "these exact bytes were verified". What this does not catch: bytes damaged on disk after they were verified
/// in this process (the next process to open the file will catch them).
final class PagedFile: @unchecked Sendable {
    let file: StorageFile
    let path: String
    let pageSize: Int
    /// The mapping's base; it never moves, so pointers handed to readers stay valid while the file grows.
    let base: UnsafeRawPointer
    /// Pages the mapping can hold.
    let mappablePages: UInt64

    /// Clear copies of encrypted nodes; nil for a file that is not encrypted (its nodes are read in place).
    let decrypted: DecryptedNodeCache?
    /// Bytes a node carries on disk after its payload: the iv and code of an encrypted node, else none.
    let sealByteCount: Int
    /// Whether the file's nodes are bound to their places (format 3): each header records its node's page, and
    /// new references carry their node's version tag. Files of formats 1 and 2 keep their nodes unbound.
    let bindsNodes: Bool

    private let verifiedLock = ThreadLock()
    private var verifiedVersions: [UInt64] = []

    /// Maps `file`, reserving address space for `reservedBytes`; `cipher` encrypts its nodes (nil: none), and
    /// `cacheBytes` bounds the clear copies kept across transactions.
    init(file: StorageFile, pageSize: Int, reservedBytes: UInt64, cipher: NodeCipher? = nil, cacheBytes: Int = 8 << 20) throws {
        self.file = file
        self.path = file.path
        self.pageSize = pageSize
        decrypted = cipher.map { DecryptedNodeCache(cipher: $0, budget: cacheBytes) }
        sealByteCount = cipher == nil ? 0 : NodeCipher.sealByteCount
        let fileSize = try file.size()
        let reservation = max(reservedBytes, fileSize * 2)
        base = try file.map(reservingBytes: reservation)
        mappablePages = min(reservation / UInt64(pageSize), NodeRef.pageLimit)
        bindsNodes = FileHeader.bindsNodes(at: base)
    }

    /// Meta slot `index` (0 or 1) as it is in the file now, or nil when it is torn or empty.
    func meta(slot index: Int) -> MetaSlot? {
        MetaSlot.decode(from: base + FileHeader.slotOffsets[index])
    }

    /// The meta slots that decode, newest version first, each with its index.
    func decodedMetaSlots() -> [(meta: MetaSlot, slot: Int)] {
        [0, 1].compactMap { slot in meta(slot: slot).map { (meta: $0, slot: slot) } }
            .sorted { $0.meta.version > $1.meta.version }
    }

    /// The header and page span of node `ref` in a version of `pageCount` pages, checked to lie inside it and to be
    /// the node `ref` means; with `log`, read from the commit log when it holds the page's copy for `version`.
    ///
    /// `version` is the version being read: no node it reaches was written by a later one. A node that says
    /// otherwise sits on a page reused while the version was still read (a broken protocol: a lock file deleted
    /// under running processes, a bug), and its bytes, whole and checksummed as they are, belong to another version:
    /// an error, not an answer.
    ///
    /// A node's checksum proves its bytes, not its place: the node must also be bound to where it was read (see
    /// `bindingProblem`). That costs two comparisons and runs on every read, whether or not the checksum was
    /// verified before.
    ///
    /// - Throws: `corruptFile` when the node starts or ends outside the version, its header is damaged, a later
    ///   version wrote it, or it is not the node `ref` was made for (moved, swapped, copied, or an older copy).
    func header(
        of ref: NodeRef, pageCount: UInt64, version: UInt64, log: LogView? = nil
    ) throws -> (header: NodeHeader, pages: UInt64) {
        let node = try locate(ref, pageCount: pageCount, version: version, log: log)
        return (node.header, node.pages)
    }

    /// Where node `ref` of a version of `pageCount` pages starts (in the data file's mapping, or with `log` in the
    /// log's when it holds the page's copy for `version`), with its header and page span, checked as `header(of:)`
    /// says.
    @inline(__always)
    private func locate(
        _ ref: NodeRef, pageCount: UInt64, version: UInt64, log: LogView?
    ) throws -> (start: UnsafeRawPointer, header: NodeHeader, pages: UInt64) {
        // Within a mapped version, the checks against its page count below also keep every read in the mapping.
        try requireMapped(pageCount: pageCount)
        let page = ref.page
        guard page >= 1, page < pageCount else {
            throw corrupt(ref, "the reference points outside the \(pageCount) pages of this version")
        }
        var start = base + Int(page) * pageSize
        var logPages: UInt64?
        if let log, let copy = log.copy(of: page, atMost: version) {
            guard copy.offset + UInt64(copy.pages) * UInt64(pageSize) <= log.mappedBytes else {
                throw corrupt(ref, "its copy in log generation \(log.generation) lies past the \(log.mappedBytes) "
                    + "bytes this process mapped of the log")
            }
            start = try log.start(of: page, copy)
            logPages = UInt64(copy.pages)
        }
        guard let header = NodeHeader.decode(from: start) else {
            throw corrupt(ref, "no node header here (wrong magic or kind byte)")
        }
        guard header.version <= version else {
            throw corrupt(ref, "it was written by version \(header.version), after the version \(version) being read: its page was reused under a reader")
        }
        if let problem = bindingProblem(ref, header) { throw corrupt(ref, problem) }
        let pages = pageSpan(length: Int(header.length))
        guard pages <= pageCount - page else {
            throw corrupt(ref, "its length \(header.length) runs past the \(pageCount) pages of this version")
        }
        if let logPages, pages > logPages {
            throw corrupt(ref, "its length \(header.length) runs past the \(logPages) pages its log record gives it")
        }
        return (start, header, pages)
    }

    /// Why the node whose header is `header`, read from `ref`'s page, is not the node `ref` was made for; nil when
    /// it is.
    ///
    /// In a file of format 3 the header must name the page it was read from (a node moved, swapped or copied to
    /// another page names its own), and a bound reference's version tag must be the tag of the header's version (an
    /// older copy of the same page, put back, carries an older version). In a file of format 1 or 2 nodes name no
    /// page (the field is 0) and references are unbound. An unbound reference (a commit record's entry, whose
    /// checksum already fixes the version) skips the version check.
    func bindingProblem(_ ref: NodeRef, _ header: NodeHeader) -> String? {
        if bindsNodes {
            if header.page != ref.page {
                return header.page == 0
                    ? "its header names no page, which every node of this file does: it is not a node of this file"
                    : "it is the node of page \(header.page), not of page \(ref.page): pages were moved, swapped or copied"
            }
        } else if header.page != 0 {
            return "its header names page \(header.page), which no node of this file (format 1 or 2) does"
        }
        if ref.versionTag != 0, ref.versionTag != NodeRef.tag(of: header.version) {
            return "it was written by version \(header.version), not by the version the reference was made for (tag "
                + "\(ref.versionTag)): an older or other copy of the page is in its place"
        }
        return nil
    }

    /// Throws unless the first `pageCount` pages all lie inside this process's mapping: checked on every node
    /// read, and before reads of a whole version that do not go node by node (a page-by-page copy).
    func requireMapped(pageCount: UInt64) throws {
        guard pageCount <= mappablePages else { throw outsideMapping(pageCount: pageCount) }
    }

    /// The error for a version longer than this process's mapping: another process, which reserved more address
    /// space, grew the file past what this one reserved at open (`StoreOptions.maximumFileSize`, or twice the
    /// file's size then). Reading on would touch memory that is not the file.
    private func outsideMapping(pageCount: UInt64) -> StrataError {
        let reserved = mappablePages * UInt64(pageSize)
        return .io(
            operation: "read", path: path, errno: ENOMEM,
            message: "the file has grown to \(pageCount * UInt64(pageSize)) bytes, past the \(reserved) bytes this "
                + "process reserved for it when it opened the store; reopen it with a larger StoreOptions.maximumFileSize")
    }

    /// Pages a node with `length` payload bytes spans in this file (an encrypted node carries its seal too).
    func pageSpan(length: Int) -> UInt64 {
        NodeHeader.pageSpan(length: length + sealByteCount, pageSize: pageSize)
    }

    /// A lease for a read that does not belong to a transaction, or nil when the file is not encrypted (nodes are
    /// then read in place and need no holding). Keep it until done with the payloads read under it.
    func makeLease() -> NodeLease? {
        decrypted == nil ? nil : NodeLease()
    }

    /// The verified payload of node `ref` of `kind`: in place in the mapping (with `log`, the log's mapping when it
    /// holds the page's copy for `version`), or for an encrypted file a clear copy that `lease` keeps alive.
    ///
    /// A copy in the log and the node a checkpoint writes from it are the same bytes of the same version, so the
    /// verified-version table and the decrypted cache, keyed by page and version, serve both.
    ///
    /// - Throws: `corruptFile` when the node is out of bounds, of another kind, or fails its checksum or its
    ///   authentication code.
    func payload(
        of ref: NodeRef, kind: NodeKind, pageCount: UInt64, version: UInt64, lease: NodeLease?, log: LogView? = nil
    ) throws -> UnsafeRawBufferPointer {
        let (start, header, _) = try locate(ref, pageCount: pageCount, version: version, log: log)
        guard header.kind == kind else {
            throw corrupt(ref, "expected a \(kind) node, found a \(header.kind) node")
        }
        let page = Int(ref.page)
        let known = verifiedLock.withLock { page < verifiedVersions.count && verifiedVersions[page] == header.version }
        if !known {
            guard checksumHolds(at: start, header: header) else {
                throw corrupt(ref, "its checksum does not match (written by version \(header.version))")
            }
            markVerified(page: ref.page, version: header.version)
        }
        guard let decrypted else {
            return UnsafeRawBufferPointer(start: start + NodeHeader.byteCount, count: Int(header.length))
        }
        guard let lease else { preconditionFailure("a read of an encrypted store without a lease") }
        guard let payload = decrypted.payload(
            page: ref.page, version: header.version, length: Int(header.length), start: start, lease: lease)
        else {
            throw corrupt(ref, "its authentication code does not match: it was changed by something without the key")
        }
        return payload
    }

    /// Whether the checksum in the node header at `start` matches the node's bytes on disk.
    func checksumHolds(at start: UnsafeRawPointer, header: NodeHeader) -> Bool {
        Checksum.hash(start + 8, count: NodeHeader.byteCount - 8 + Int(header.length) + sealByteCount) == start.u64(at: 0)
    }

    /// Whether node `ref` is whole in a file of `fileSize` bytes and has `checksum` (used to check a commit record
    /// before trusting its meta slot).
    func holds(_ ref: NodeRef, checksum: UInt64, fileSize: UInt64) -> Bool {
        let pagesInFile = fileSize / UInt64(pageSize)
        // The exact checksum decides; which version wrote the node is the record's business, not this check's.
        guard let (header, _) = try? header(of: ref, pageCount: min(pagesInFile, mappablePages), version: .max)
        else { return false }
        let start = base + Int(ref.page) * pageSize
        return start.u64(at: 0) == checksum && checksumHolds(at: start, header: header)
    }

    /// Records that the node on `page` written by `version` has been verified (or was just written by us).
    func markVerified(page: UInt64, version: UInt64) {
        verifiedLock.withLock {
            let index = Int(page)
            if index >= verifiedVersions.count {
                verifiedVersions.append(contentsOf: repeatElement(0, count: max(index + 1, verifiedVersions.count * 2) - verifiedVersions.count))
            }
            verifiedVersions[index] = version
        }
    }

    func corrupt(_ ref: NodeRef, _ detail: String) -> StrataError {
        .corruptFile(path: path, location: "node \(ref) (page \(ref.page))", detail: detail)
    }
}

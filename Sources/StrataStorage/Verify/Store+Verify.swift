extension Store {
    /// Checks the structure of the newest committed version: the header, the meta-reachable nodes (free list,
    /// commit record), the table nodes and the free extents cover every page below the version's page count
    /// exactly once, and every node's checksum holds (computed afresh, not taken from the verified-node cache).
    ///
    /// - Parameter tableNodes: The table layer's walk: called with a reader of the version and a function to
    ///   report each node reachable from `reader.root`, once per node.
    /// - Throws: `corruptFile` naming the first page covered twice or not at all, or the node that fails its
    ///   checksum; whatever `tableNodes` throws.
    package func verify(tableNodes: (NodeReader, (NodeRef) -> Void) throws -> Void) throws {
        // With a commit log, the data file is checkpointed to the version checked first: it is what is checked.
        try withCheckpointedReader { reader in try verify(reader: reader, tableNodes: tableNodes) }
    }

    private func verify(reader: ReadTransaction, tableNodes: (NodeReader, (NodeRef) -> Void) throws -> Void) throws {
        let meta = reader.meta
        var coverage = PageCoverage(pageCount: meta.pageCount, path: path)
        try coverage.mark(start: 0, count: 1, owner: "the file header")
        let fileSize = try pagedFile.file.size()
        guard meta.pageCount * UInt64(pageSize) <= fileSize else {
            throw StrataError.corruptFile(
                path: path, location: "version \(meta.version)",
                detail: "the version spans \(meta.pageCount) pages but the file holds \(fileSize) bytes")
        }

        let lease = pagedFile.makeLease()
        func checkNode(_ ref: NodeRef, kind: NodeKind, owner: String) throws -> UnsafeRawBufferPointer {
            let (header, pages) = try pagedFile.header(of: ref, pageCount: meta.pageCount, version: meta.version)
            guard header.kind == kind else {
                throw pagedFile.corrupt(ref, "\(owner) should be a \(kind) node, found a \(header.kind) node")
            }
            guard pagedFile.checksumHolds(at: pagedFile.base + Int(ref.page) * pageSize, header: header)
            else { throw pagedFile.corrupt(ref, "\(owner) fails its checksum") }
            try coverage.mark(start: ref.page, count: pages, owner: "\(owner) \(ref)")
            // Checksum checked afresh above; the payload (and an encrypted node's code) through the pager.
            return try pagedFile.payload(of: ref, kind: kind, pageCount: meta.pageCount, version: meta.version, lease: lease)
        }

        let freeList = try StoredFreeList.read(
            meta, path: path, kindAt: { try pagedFile.header(of: $0, pageCount: meta.pageCount, version: meta.version).header.kind },
            payload: { try checkNode($0, kind: $1, owner: $1 == .freeList ? "the free list" : "the free-list changes") })
        for extent in freeList.extents {
            try coverage.mark(start: extent.start, count: extent.count, owner: "free extent freed at \(extent.freedAt)")
        }
        if !meta.commitRecord.isNone {
            let payload = try checkNode(meta.commitRecord, kind: .commitRecord, owner: "the commit record")
            let record = try CommitRecord.decode(payload, path: path, node: meta.commitRecord)
            // An entry names a page (an unbound reference): its checksum fixes the version, the header the page.
            for (page, checksum) in record.entries.map({ ($0.page, $0.checksum) })
            where page >= meta.pageCount || !pagedFile.holds(NodeRef(rawValue: page), checksum: checksum, fileSize: fileSize) {
                throw pagedFile.corrupt(NodeRef(rawValue: page), "it does not match the commit record of version \(meta.version)")
            }
        }
        var reported: [NodeRef] = []
        try tableNodes(reader) { reported.append($0) }
        for ref in reported { _ = try checkNode(ref, kind: .table, owner: "table node") }
        try coverage.checkComplete(version: meta.version)
    }
}

/// Which pages of a version something claims, to find pages claimed twice or never.
struct PageCoverage {
    private var claimed: [UInt64]
    let pageCount: UInt64
    let path: String

    init(pageCount: UInt64, path: String) {
        self.pageCount = pageCount
        self.path = path
        claimed = [UInt64](repeating: 0, count: Int((pageCount + 63) / 64))
    }

    /// Claims pages `start ..< start + count` for `owner`.
    ///
    /// - Throws: `corruptFile` when a page lies outside the version or is already claimed.
    mutating func mark(start: UInt64, count: UInt64, owner: String) throws {
        guard start < pageCount, count <= pageCount - start else {
            throw StrataError.corruptFile(
                path: path, location: "page \(start)", detail: "\(owner) lies outside the version's \(pageCount) pages")
        }
        for page in start..<(start + count) {
            let bit: UInt64 = 1 << (page % 64)
            guard claimed[Int(page / 64)] & bit == 0 else {
                throw StrataError.corruptFile(
                    path: path, location: "page \(page)", detail: "\(owner) claims a page something else already uses")
            }
            claimed[Int(page / 64)] |= bit
        }
    }

    /// - Throws: `corruptFile` naming the first page nothing claims (a leak).
    func checkComplete(version: UInt64) throws {
        for page in 0..<pageCount where claimed[Int(page / 64)] & (1 << (page % 64)) == 0 {
            throw StrataError.corruptFile(
                path: path, location: "page \(page)",
                detail: "version \(version) neither uses nor frees this page (leaked space)")
        }
    }
}

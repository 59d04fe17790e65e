extension Store {
    /// Writes a consistent copy of the newest committed version to `destination` (a backup taken while
    /// readers and the writer keep working).
    ///
    /// The copy is written under a temporary name, synced, renamed into place and its directory synced, so a
    /// crash leaves either no file at `destination` or a whole one. Pages are copied as they are (free pages
    /// included); compaction belongs to the table layer, which knows how to move nodes.
    ///
    /// - Throws: `invalidArgument` when `destination` exists (a symbolic link counts, even a dangling one) or is
    ///   one of this store's own files; `diskFull`, `io` from writing the copy (a symbolic link at the temporary
    ///   name is refused, not followed).
    package func writeCopy(to destination: String) throws {
        try Store.checkCopyDestination(destination, source: path)
        guard !io.fileExists(at: destination) else {
            throw StrataError.invalidArgument("'\(destination)' already exists; remove it or choose another path")
        }
        // With a commit log, the data file is checkpointed to the version copied first: its pages are copied.
        try withCheckpointedReader { reader in try writeCopy(of: reader.meta, to: destination) }
    }

    private func writeCopy(of meta: MetaSlot, to destination: String) throws {
        try pagedFile.requireMapped(pageCount: meta.pageCount)
        let temporary = Store.creatingPath(for: destination)
        try io.remove(at: temporary)
        let file = try io.openFile(at: temporary, create: true, readOnly: false)
        defer { file.close() }
        do {
            var header = [UInt8](repeating: 0, count: pageSize)
            header.withUnsafeMutableBytes { bytes in
                // What page 0 holds before the meta slots: the header and the encryption block (the copy keeps the
                // key: its nodes are copied as they are, encrypted under it).
                bytes.baseAddress!.copyMemory(from: pagedFile.base, byteCount: FileHeader.slotOffsets[0])
                meta.encode(into: bytes.baseAddress! + FileHeader.slotOffsets[0])
            }
            try header.withUnsafeBytes { try file.write($0, at: 0) }
            let chunkPages = max(1, (1 << 20) / pageSize)
            var page: UInt64 = 1
            while page < meta.pageCount {
                let count = min(UInt64(chunkPages), meta.pageCount - page)
                let bytes = UnsafeRawBufferPointer(
                    start: pagedFile.base + Int(page) * pageSize, count: Int(count) * pageSize)
                try file.write(bytes, at: page * UInt64(pageSize))
                page += count
            }
            try file.sync()
            try io.rename(from: temporary, to: destination)
            try io.syncDirectory(containing: destination)
        } catch {
            try? io.remove(at: temporary)
            throw error
        }
    }

    /// Writes `source` (a version's catalog, as a reader sees it) with only its live data to a new store file at
    /// `path`. The copy is built, committed and synced under a hidden temporary name in the same folder
    /// (`.NAME.RANDOM.partial`), then renamed to `path` and the folder synced: a crash or an interruption
    /// (Ctrl-C during `strata compact`) leaves no file at `path` or a whole copy, never a store that opens empty or
    /// half filled under the name asked for (it may leave the hidden file). Nothing is left when the copy fails (a
    /// full disk, a damaged source). `Database.writeCopy` and `strata compact` copy through here, compaction on
    /// open through `buildCompactedCopy(of:at:options:)`.
    ///
    /// - Parameter options: how the copy is opened (its `io`, `encryptionKey`, `pageSize`, `maximumFileSize`);
    ///   its durability is always `.full`.
    /// Callers check first that `path` is none of the source store's own files (`checkCopyDestination`).
    ///
    /// - Throws: `invalidArgument` when `path` exists (a symbolic link counts, even a dangling one); what opening,
    ///   copying, committing or renaming throws.
    package static func writeCompactedCopy(of source: Catalog, to path: String, options: StoreOptions) throws {
        let io = options.io ?? POSIXStorage(filePermissions: options.filePermissions)
        guard !io.fileExists(at: path) else {
            throw StrataError.invalidArgument("'\(path)' already exists; remove it or choose another name for the copy")
        }
        let temporary = POSIXStorage.directory(of: path) + "/." + POSIXStorage.fileName(of: path) + "."
            + String(UInt64.random(in: 0 ... .max), radix: 16) + ".partial"
        try buildCompactedCopy(of: source, at: temporary, options: options)
        do {
            try io.rename(from: temporary, to: path)
            try io.syncDirectory(containing: path)
        } catch {
            try? io.remove(at: temporary)
            throw error
        }
    }

    /// Builds the compacted copy of `source` as a new store at `path`: opens it, copies, commits (synced), commits
    /// again without changes so that both meta slots reach the data, closes it and removes its lock file. Removes
    /// both when the copy fails.
    static func buildCompactedCopy(of source: Catalog, at path: String, options: StoreOptions) throws {
        var options = options
        options.durability = .full
        // The copy is renamed into place alone: its commits go to its data file.
        options.commitLog = false
        let copy = try Store.open(path: path, options: options)
        do {
            let transaction = try copy.beginWrite()
            do {
                let destination = try Catalog(writer: transaction)
                try source.copy(into: destination)
                try destination.flush()
                try transaction.commit()
            } catch {
                transaction.rollback()
                throw error
            }
            // Both meta slots must reach the data: with only the copy's commit, the other slot holds the empty
            // version the file was created with, and a damaged byte in the copy's newest commit would open an
            // empty store (its lock file, removed below, cannot tell the next opener the commit was acknowledged).
            try copy.beginWrite().commit(evenIfUnchanged: true)
            copy.close()
        } catch {
            copy.close()
            try? copy.io.remove(at: copy.path)
            try? copy.io.remove(at: copy.lockFile.path)
            throw error
        }
        try? copy.io.remove(at: copy.lockFile.path)
    }
}

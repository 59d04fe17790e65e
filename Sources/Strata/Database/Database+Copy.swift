import Foundation
import StrataStorage

extension Database {
    /// Writes a compacted copy of the version this database reads to a new file: only live data, no free
    /// space, no old versions. Use it for backups, or to shrink a file that once held much more than it does now.
    ///
    /// The copy is written, synced, and only then given its name (with the directory synced), so a crash leaves
    /// either no file at `url` or a whole one.
    ///
    /// The copy is encrypted with this database's ``Configuration/encryptionKey`` (or in clear when it has none).
    ///
    /// - Throws: `StrataError.invalidArgument` when `url` already exists (a symbolic link counts) or is one of this
    ///   database's own files (its lock file, its compaction's copy); `transactionMisuse` inside a write
    ///   transaction (as Realm); I/O errors (a full disk) with nothing left at `url`.
    public func writeCopy(to url: URL) throws {
        try writeCopy(to: url, encryptionKey: configuration.encryptionKey, caller: "Database.writeCopy(to:)")
    }

    /// Writes a compacted copy, as ``writeCopy(to:)`` does, encrypted with `encryptionKey` (64 bytes), or in clear
    /// when it is `nil`: the way to encrypt a file, change its key or remove its encryption. Open the copy with
    /// that key.
    ///
    /// - Throws: `StrataError.invalidArgument` when `url` already exists or the key is not 64 bytes;
    ///   `transactionMisuse` inside a write transaction; I/O errors (a full disk) with nothing left at `url`.
    public func writeCopy(to url: URL, encryptionKey: Data?) throws {
        try writeCopy(to: url, encryptionKey: encryptionKey, caller: "Database.writeCopy(to:encryptionKey:)")
    }

    private func writeCopy(to url: URL, encryptionKey: Data?, caller: String) throws {
        try withAccess(caller) {
            guard !isInWriteTransaction else {
                throw StrataError.transactionMisuse(
                    "\(caller) inside a write transaction would copy changes that may yet be cancelled; commit or "
                        + "cancel the write first")
            }
            try Store.checkCopyDestination(url.path, source: store.path)
            let source = try catalog()
            var options = StoreOptions()
            options.filePermissions = configuration.filePermissions
            options.encryptionKey = encryptionKey.map { Array($0) }
            try store.namingFile { try Store.writeCompactedCopy(of: source, to: url.path, options: options) }
        }
    }
}

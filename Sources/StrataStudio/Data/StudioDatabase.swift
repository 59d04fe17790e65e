import Dispatch
import Foundation
import StrataStorage

/// The database file the studio serves, opened once for the life of the server.
///
/// Every read runs in its own read transaction and every edit in its own write transaction, on one serial queue
/// (the store's calls block, so they stay off the server's threads). The studio needs no app code: it works from
/// the catalog, the file's own description of its tables, as `strata export` and `strata info` do.
///
/// When the file cannot be opened (an encrypted file without its key, a damaged header) the server still starts
/// and every request answers with the reason, so the page shows it.
public final class StudioDatabase: @unchecked Sendable {
    /// The file.
    public let path: String
    /// Whether edits are refused (`--read-only`; the store is then opened read-only too).
    public let isReadOnly: Bool
    /// The open store; `nil` when opening failed (see ``openError``).
    let store: Store?
    /// Why the file could not be opened.
    public let openError: String?
    private let queue = DispatchQueue(label: "Strata Studio database")

    /// Opens `path` (which must exist: the studio never creates a database) with `encryptionKey` when given.
    public init(path: String, encryptionKey: [UInt8]?, readOnly: Bool) {
        self.path = path
        self.isReadOnly = readOnly
        var options = StoreOptions(readOnly: readOnly)
        options.encryptionKey = encryptionKey
        do {
            guard FileManager.default.fileExists(atPath: path) else {
                throw StudioError(404, "no database exists at '\(path)'; the studio opens existing databases only")
            }
            let store = try Store.open(path: path, options: options)
            // Reading the catalog once finds a wrong key or a damaged catalog now rather than on the first page.
            let reader = try store.beginRead()
            defer { reader.end() }
            _ = try store.namingFile { try Catalog(reader: reader) }
            self.store = store
            self.openError = nil
        } catch {
            self.store = nil
            self.openError = "cannot open \(path): \(error)"
        }
    }

    /// Closes the file.
    public func close() {
        queue.sync { store?.close() }
    }

    /// Runs `body` on the catalog of a new read transaction, on the database's queue.
    func read<T: Sendable>(_ body: @escaping @Sendable (Catalog, Store) throws -> T) async throws -> T {
        let store = try openStore()
        return try await onQueue {
            let reader = try store.beginRead()
            defer { reader.end() }
            return try store.namingFile { try body(try Catalog(reader: reader), store) }
        }
    }

    /// Runs `body` in one write transaction and commits it; any error rolls everything back, so nothing of a
    /// failed edit is written.
    func write<T: Sendable>(_ body: @escaping @Sendable (Catalog) throws -> T) async throws -> T {
        let store = try openStore()
        guard !isReadOnly else { throw StudioError(403, "the studio was started with --read-only: edits are refused") }
        return try await onQueue {
            try store.namingFile {
                let transaction = try store.beginWrite()
                do {
                    let catalog = try Catalog(writer: transaction)
                    let result = try body(catalog)
                    try catalog.flush()
                    try transaction.commit()
                    return result
                } catch {
                    transaction.rollback()
                    throw error
                }
            }
        }
    }

    /// The store, or the reason it is not open.
    func openStore() throws -> Store {
        guard let store else { throw StudioError(500, openError ?? "the database is not open") }
        return store
    }

    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: StudioError.wrapping(error))
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last catalog node this process decoded or wrote, with its decoded contents: a write transaction of a
/// one-value commit otherwise decodes every table record (names, column specs, defaults, indexes) of a catalog
/// that the previous commit of this process just encoded.
///
/// Keyed by the node's bytes, not its reference or version: a page can be freed and reused for another catalog,
/// but equal bytes always decode to equal contents, so a hit can never be stale. Comparing a few hundred bytes
/// costs far less than decoding them. One per store, shared by its threads under its own lock.
package final class CatalogCache: @unchecked Sendable {
    private let lock = ThreadLock()
    private var bytes: [UInt8] = []
    private var contents: CatalogCodec.Contents?

    /// The decoded contents of the catalog node whose payload is `raw`, when it is the remembered one.
    func contents(of raw: UnsafeRawBufferPointer) -> CatalogCodec.Contents? {
        lock.withLock {
            guard let contents, bytes.count == raw.count, let incoming = raw.baseAddress else { return nil }
            let same = bytes.withUnsafeBytes { remembered in
                remembered.baseAddress.map { memcmp($0, incoming, raw.count) == 0 } ?? false
            }
            return same ? contents : nil
        }
    }

    /// Remembers that the catalog node payload `raw` decodes to `contents`.
    func remember(_ raw: UnsafeRawBufferPointer, contents: CatalogCodec.Contents) {
        lock.withLock {
            bytes = Array(raw)
            self.contents = contents
        }
    }

    private var metadataBytes: [UInt8] = []
    private var metadataEntries: [String: [UInt8]]?

    /// The decoded entries of the metadata node whose payload is `raw`, when it is the remembered one: a synced
    /// commit reads the client's sync state from the metadata and writes part of it back, and decoding every entry
    /// (the schema's among them) cost an allocation or two each, in every such transaction. Keyed by bytes, as the
    /// catalog is.
    func metadata(of raw: UnsafeRawBufferPointer) -> [String: [UInt8]]? {
        lock.withLock {
            guard let metadataEntries, metadataBytes.count == raw.count, let incoming = raw.baseAddress else { return nil }
            let same = metadataBytes.withUnsafeBytes { remembered in
                remembered.baseAddress.map { memcmp($0, incoming, raw.count) == 0 } ?? false
            }
            return same ? metadataEntries : nil
        }
    }

    /// Remembers that the metadata node payload `bytes` decodes to `entries`.
    func rememberMetadata(_ bytes: [UInt8], entries: [String: [UInt8]]) {
        lock.withLock {
            metadataBytes = bytes
            metadataEntries = entries
        }
    }
}

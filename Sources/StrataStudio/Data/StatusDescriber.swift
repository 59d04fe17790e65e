import Strata
import StrataStorage

/// The file's status for the page: size, space used and free, the versions readers pin, and the segments of the
/// bar that pictures where the file's bytes go.
struct StatusDescriber {
    let store: Store
    let catalog: Catalog
    let isReadOnly: Bool

    /// `{"path", "version", "pageSize", "fileBytes", "usedBytes", "freeBytes", "waitingBytes", "oldestPinned",
    /// "pinnedInProcess", "encrypted", "readOnly", "segments": [{"name", "bytes", "words"}], "models"}`.
    func describe() throws -> JSONValue {
        let status = try store.status
        let reusable = status.freeBytes >= status.waitingBytes ? status.freeBytes - status.waitingBytes : 0
        let extent = status.usedBytes + status.freeBytes
        let tail = status.fileBytes > extent ? status.fileBytes - extent : 0
        let segments: [(String, UInt64, String)] = [
            ("used", status.usedBytes, "pages the current version reaches (objects, indexes, the catalog)"),
            ("free", reusable, "free pages the next writes reuse"),
            ("waiting", status.waitingBytes, "freed pages a reader still pins (or not yet durable)"),
            ("unallocated", tail, "space past the last page, allocated ahead of growth"),
        ]
        var models: [JSONValue] = []
        for table in catalog.tables.sorted(by: { $0.name < $1.name }) {
            models.append(.object([("name", .string(table.name)), ("objects", .number(String(try table.count())))]))
        }
        return .object([
            ("path", .string(store.path)),
            ("version", .number(String(status.currentVersion))),
            ("pageSize", .number(String(status.pageSize))),
            ("fileBytes", .number(String(status.fileBytes))),
            ("usedBytes", .number(String(status.usedBytes))),
            ("freeBytes", .number(String(status.freeBytes))),
            ("waitingBytes", .number(String(status.waitingBytes))),
            ("oldestPinned", status.oldestPinnedVersion.map { .number(String($0)) } ?? .null),
            ("pinnedInProcess", .array(status.pinnedVersionsInProcess.map { .number(String($0)) })),
            ("recovery", status.openRecovery.map { .string("\($0)") } ?? .null),
            ("encrypted", .bool(store.isEncrypted)),
            ("readOnly", .bool(isReadOnly)),
            ("segments", .array(segments.map { name, bytes, words in
                .object([("name", .string(name)), ("bytes", .number(String(bytes))), ("words", .string(words))])
            })),
            ("models", .array(models)),
        ])
    }
}

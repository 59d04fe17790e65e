import ArgumentParser
import Foundation
import StrataStorage

/// `strata info FILE`: versions, space, readers, schema and tables.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Print a database's versions, space use, pinned readers and tables.")

    @Argument(help: "The database file (NAME.strata).")
    var file: String

    @OptionGroup var keyFile: KeyFileOption

    func run() throws {
        let store = try keyFile.openExistingStore(file)
        defer { store.close() }
        let status = try store.status
        print("\(file)")
        print("  version \(status.currentVersion), page size \(status.pageSize)"
            + (store.isEncrypted ? ", encrypted (AES-256-CTR and HMAC-SHA256 per node)" : ""))
        print("  file \(bytes(status.fileBytes)): used \(bytes(status.usedBytes)), free \(bytes(status.freeBytes)), "
            + "waiting for readers \(bytes(status.waitingBytes))")
        if let recovery = status.openRecovery {
            print("  WARNING: \(recovery)")
        }
        if let oldest = status.oldestPinnedVersion {
            print("  oldest version pinned by a reader: \(oldest) (space it holds cannot be reused until it ends)")
        }
        let reader = try store.beginRead()
        defer { reader.end() }
        try store.namingFile {
            let catalog = try Catalog(reader: reader)
            var deleteRules: [String: String] = [:]
            if let record = try catalog.metadata(forKey: "strata.schema") {
                print("  schema record: \(String(decoding: record, as: UTF8.self))")
                deleteRules = (try? JSONDecoder().decode(RecordedRules.self, from: Data(record)))?.deleteRules ?? [:]
            }
            for table in catalog.tables {
                let columns = table.columns.filter { $0.type != .backlinks }.map(\.description).joined(separator: ", ")
                // An embedded table's objects each belong to one link or list element of another table.
                let kind = table.isEmbedded ? " (embedded)" : ""
                print("  \(table.name)\(kind): \(try table.count()) object(s); \(columns)")
                for index in table.fullTextIndexSpecs {
                    let column = index.columns.first.flatMap { table.column($0)?.name } ?? "?"
                    let size = try table.fullTextSize(index.key)
                    let unit = index.isPostingBlocks ? "posting blocks" : "entries (one per term and object)"
                    print("    full-text index on \(column): \(size.entries) \(unit), "
                        + "\(bytes(UInt64(size.bytes))) of entry bytes in \(size.nodes) nodes of "
                        + "\(bytes(UInt64(size.nodeBytes)))")
                }
                // Uniqueness rules are the unique indexes other than the primary key's.
                let key = [table.primaryKey].compactMap { $0 }
                let rules = table.indexSpecs.filter { $0.isUnique && $0.columns != key }
                    .map { spec in spec.columns.map { table.column($0)?.name ?? "\($0)" }.joined(separator: " + ") }
                if !rules.isEmpty { print("    unique: " + rules.joined(separator: "; ")) }
                // Delete rules change no data: the schema record lists those of the file's version.
                let prefix = table.name + "."
                let onDelete = deleteRules.filter { $0.key.hasPrefix(prefix) }
                    .map { "\($0.key.dropFirst(prefix.count)) \($0.value)" }.sorted()
                if !onDelete.isEmpty { print("    onDelete: " + onDelete.joined(separator: "; ")) }
            }
        }
    }

    private func bytes(_ count: UInt64) -> String {
        count >= 1 << 20 ? String(format: "%.1f MiB", Double(count) / 1_048_576) : "\(count) B"
    }
}

/// The part of the schema record `strata info` lists per table: the version's `cascade` and `deny` rules by
/// `Model.property`.
private struct RecordedRules: Decodable {
    var deleteRules: [String: String]?
}

import Strata
import StrataStorage

/// The schema record the runtime stores in the file (`strata.schema` metadata, docs/FILE-FORMAT.md): the schema's
/// name, the version the tables match, the fingerprint of every version the file was created at or migrated
/// through, and the version's `cascade` and `deny` delete rules by `Model.property`.
struct SchemaRecordSummary {
    /// `schema:` of the app's files; `nil` when the file has no record (written by the storage layer alone).
    var name: String?
    /// The version the tables match.
    var version: Int?
    /// Fingerprints by version number, oldest first.
    var fingerprints: [(version: Int, fingerprint: String)] = []
    /// `cascade` / `deny` by `Model.property`.
    var deleteRules: [String: String] = [:]

    /// Reads the record of `catalog`'s file.
    init(catalog: Catalog) throws {
        guard let bytes = try catalog.metadata(forKey: "strata.schema") else { return }
        var parser = JSONParser(bytes)
        let document = try parser.parse()
        guard case .object = document else { return }
        if case .string(let text)? = document["schema"] { name = text }
        if case .number(let text)? = document["version"] { version = Int(text) }
        if case .object(let members)? = document["fingerprints"] {
            fingerprints = members.compactMap { member in
                guard let number = Int(member.key), case .string(let text) = member.value else { return nil }
                return (number, text)
            }.sorted { $0.version < $1.version }
        }
        if case .object(let members)? = document["deleteRules"] {
            for member in members {
                if case .string(let rule) = member.value { deleteRules[member.key] = rule }
            }
        }
    }

    /// The history in words: one entry per recorded version, saying how the file reached it.
    func history() -> JSONValue {
        guard let name else {
            return .object([
                ("schema", .null), ("version", .null), ("versions", .array([])),
                ("summary", .string("the file has no schema record: it was written by the storage layer alone, "
                    + "not through a Strata schema")),
            ])
        }
        var versions: [JSONValue] = []
        for (index, entry) in fingerprints.enumerated() {
            let words: String
            if index == 0 {
                words = "the file was created at version \(entry.version)"
            } else {
                let previous = fingerprints[index - 1].version
                words = entry.version == previous + 1
                    ? "migrated from version \(previous) to \(entry.version)"
                    : "migrated from version \(previous) to \(entry.version) (versions in between were applied in "
                        + "the same migration)"
            }
            versions.append(.object([
                ("version", .number(String(entry.version))), ("fingerprint", .string(entry.fingerprint)),
                ("words", .string(words)),
            ]))
        }
        let current = version.map { "tables match version \($0) of schema \(name)" } ?? "schema \(name)"
        return .object([
            ("schema", .string(name)),
            ("version", version.map { .number(String($0)) } ?? .null),
            ("versions", .array(versions)),
            ("summary", .string(current + "; the migration steps between versions are the app's schema files' "
                + "(strata-gen diff lists them); the file records each version's fingerprint")),
        ])
    }
}

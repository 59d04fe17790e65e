#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// What a database file records about the schema it holds, in the catalog's metadata: the schema's name, its
/// version, and the fingerprint of every version the file went through (so an old version edited after
/// release is noticed).
struct SchemaRecord: Codable, Equatable {
    /// The metadata key it is stored under.
    static let metadataKey = "strata.schema"

    /// `schema:` of the files.
    var schema: String
    /// The version the file's tables match.
    var version: Int
    /// Fingerprints by version ("1", "2", …), of every version the file was created at or migrated through.
    var fingerprints: [String: String]
    /// The `cascade` and `deny` rules of `version` by `Model.property` (docs/SCHEMA.md "Delete rules"), for
    /// `strata info`; absent when the version has none. Rules are part of the fingerprint, so they match `version`.
    var deleteRules: [String: String]?

    /// The record of `version` of schema `schema`, with `fingerprints` and the version's delete rules.
    init(schema: String, version: Int, fingerprints: [String: String], deleteRules: [String: String]? = nil) {
        self.schema = schema
        self.version = version
        self.fingerprints = fingerprints
        self.deleteRules = deleteRules
    }

    /// The rules ``deleteRules`` records for `version`: every property whose `onDelete:` is not `nullify`.
    static func deleteRules(of version: SchemaVersion) -> [String: String]? {
        var rules: [String: String] = [:]
        for model in version.models {
            for property in model.properties {
                guard let rule = property.deleteRule, rule != .nullify else { continue }
                rules["\(model.name).\(property.name)"] = rule.rawValue
            }
        }
        return rules.isEmpty ? nil : rules
    }

    /// The record in `catalog`, or `nil` in a new file.
    ///
    /// - Throws: `StrataError.schemaMismatch` when the record cannot be decoded.
    static func read(from catalog: Catalog, path: String) throws -> SchemaRecord? {
        guard let bytes = try catalog.metadata(forKey: metadataKey) else { return nil }
        var reader = SchemaRecordReader(bytes)
        if let record = reader.record() { return record }
        do {
            return try JSONDecoder().decode(SchemaRecord.self, from: Data(bytes))
        } catch {
            throw StrataError.schemaMismatch(path: path, detail: "its schema record cannot be read (\(error))")
        }
    }

    /// Stores the record in `catalog` (a write transaction's).
    func write(to catalog: Catalog) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try catalog.setMetadata(Array(try encoder.encode(self)), forKey: Self.metadataKey)
    }
}

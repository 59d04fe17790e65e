#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// Writes stored objects as JSON from the file's own description of its tables (the catalog), with no generated
/// code: what `Database.exportJSON` and `strata export` share, in the form a generated snapshot's `Codable`
/// conformance writes (docs/VALUES.md, "The JSON form").
///
/// An object is a JSON object of its persisted properties in column order. A link is the linked object's primary
/// key (its stable object key when its model has none); a link to an embedded object is that object, nested; a
/// mixed value is `null` or `{"kind": value}`.
package struct RowJSONWriter {
    private let catalog: Catalog

    /// A writer over the tables of `catalog`.
    package init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Writes the objects `keys` of `table` as a JSON array into `text`.
    package func writeArray(_ keys: some Sequence<ObjectKey>, of table: Table, into text: inout JSONText) throws {
        let columns = table.columns.filter { $0.type != .backlinks }
        text.beginArray()
        var index = 0
        for key in keys {
            text.separator(index)
            try writeObject(key, of: table, columns: columns, into: &text)
            index += 1
        }
        text.endArray(empty: index == 0)
    }

    /// Writes object `key` of `table` into `text`.
    package func writeObject(_ key: ObjectKey, of table: Table, columns: [ColumnSpec], into text: inout JSONText) throws {
        text.beginObject()
        for (index, spec) in columns.enumerated() {
            text.key(spec.name, index)
            text.append(try json(try table.value(key, column: spec.key), of: spec, in: table))
        }
        text.endObject(empty: columns.isEmpty)
    }

    /// The JSON of object `key` of `table`.
    package func object(_ key: ObjectKey, of table: Table) throws -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for spec in table.columns where spec.type != .backlinks {
            members.append((spec.name, try json(try table.value(key, column: spec.key), of: spec, in: table)))
        }
        return .object(members)
    }

    /// The JSON of `value`, read from column `spec` of `table`.
    package func json(_ value: StorageValue, of spec: ColumnSpec, in table: Table) throws -> JSONValue {
        switch value {
        case .list(let elements): return .array(try elements.map { try element($0, of: spec, in: table) })
        case .map(let entries):
            return .object(try entries.keys.sorted(by: MapKeyOrder.precedes).map { key in
                (key, try element(entries[key] ?? .null, of: spec, in: table))
            })
        default: return try element(value, of: spec, in: table)
        }
    }

    private func element(_ value: StorageValue, of spec: ColumnSpec, in table: Table) throws -> JSONValue {
        if spec.type.isMixed { return try mixed(value) }
        if case .link(let key) = value {
            guard let target = spec.target.flatMap(catalog.table) else { return .null }
            return try link(to: key, in: target)
        }
        return Self.primitive(value)
    }

    /// A link to object `key` of `target`: the object itself when embedded, else its primary or stable key.
    private func link(to key: ObjectKey, in target: Table) throws -> JSONValue {
        if target.isEmbedded { return try object(key, of: target) }
        guard let primaryKey = target.primaryKey else { return .number(String(key.rawValue)) }
        return Self.primitive(try target.value(key, column: primaryKey))
    }

    private func mixed(_ value: StorageValue) throws -> JSONValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .object([("bool", .bool(flag))])
        case .int(let number): return .object([("int", .number(String(number)))])
        case .float(let number): return .object([("double", SnapshotFormat.numberJSON(Double(number)))])
        case .double(let number): return .object([("double", SnapshotFormat.numberJSON(number))])
        case .string(let text): return .object([("string", .string(text))])
        case .binary: return .object([("data", Self.primitive(value))])
        case .timestamp: return .object([("date", Self.primitive(value))])
        case .uuid: return .object([("uuid", Self.primitive(value))])
        case .decimal: return .object([("decimal", Self.primitive(value))])
        case .objectId: return .object([("objectId", Self.primitive(value))])
        case .typedLink(let tableKey, let key):
            guard let target = catalog.table(tableKey), try target.contains(key) else { return .null }
            var reference = JSONValue.number(String(key.rawValue))
            if let primaryKey = target.primaryKey { reference = Self.primitive(try target.value(key, column: primaryKey)) }
            return .object([("link", .object([("model", .string(target.name)), ("key", reference)]))])
        case .link, .list, .map: return .null
        }
    }

    /// A primitive stored value's JSON.
    package static func primitive(_ value: StorageValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .int(let number): return .number(String(number))
        case .bool(let flag): return .bool(flag)
        case .float(let number): return SnapshotFormat.numberJSON(number)
        case .double(let number): return SnapshotFormat.numberJSON(number)
        case .string(let text): return .string(text)
        case .binary(let bytes): return .string(Data(bytes).base64EncodedString())
        case .timestamp(let nanoseconds): return .string(SnapshotFormat.dateText(nanoseconds: nanoseconds))
        case .uuid(let uuid): return .string(uuid.uuidString)
        case .decimal(let decimal): return .string(decimal.description)
        case .objectId(let id): return .string(id.stringValue)
        case .link(let key): return .number(String(key.rawValue))
        case .list, .map, .typedLink: return .null
        }
    }
}

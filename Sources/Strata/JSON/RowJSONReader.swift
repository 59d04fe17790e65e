#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// Imports JSON objects into a table of a write transaction, from the file's own description of its tables (the
/// catalog): what `Database.importJSON` and `strata import` share. It reads the form ``RowJSONWriter`` writes.
///
/// Each element of the document's array is one object. An object whose primary key is stored already is updated
/// (the properties it names are written, the others keep their values); any other is inserted, properties it
/// does not name taking their column's default. A bad value throws a ``JSONImportError`` naming its JSON path;
/// the caller cancels the write, so nothing is kept.
package struct RowJSONReader {
    private let catalog: Catalog
    /// The schema's types of each table's properties, by table name then property name, when the caller has the
    /// schema (an app's database): enumerations then accept only their cases and narrow integers only their
    /// range. `strata import`, which has only the file, checks what the file records.
    private let schemaTypes: [String: [String: PropertyType]]

    /// A reader into the tables of `catalog` (a write transaction's).
    package init(catalog: Catalog, schemaTypes: [String: [String: PropertyType]] = [:]) {
        self.catalog = catalog
        self.schemaTypes = schemaTypes
    }

    /// Imports every object of the JSON array `bytes` into `table` as it parses it (no document tree:
    /// ``RowJSONImport``); returns how many. An object whose primary key is stored already is updated, any other
    /// inserted; the first problem in the text throws, a bad value as a ``JSONImportError`` naming its JSON path.
    package func importObjects(json bytes: [UInt8], into table: Table) throws -> Int {
        var parser = JSONParser(bytes)
        return try RowJSONImport(reader: self, table: table, schemaTypes: schemaTypes[table.name]).run(&parser)
    }

    /// Imports the objects of an array already parsed (from CSV, say) into `table`, with the rules of
    /// ``importObjects(json:into:)``.
    package func importObjects(_ document: JSONValue, into table: Table) throws -> Int {
        guard case .array(let elements) = document else {
            throw JSONImportError(path: "$", message: "expected an array of \(table.name) objects, found \(document.found)")
        }
        for (index, element) in elements.enumerated() {
            _ = try upsert(element, into: table, path: "$[\(index)]")
        }
        return elements.count
    }

    /// Inserts or updates one object; returns its key.
    package func upsert(_ json: JSONValue, into table: Table, path: String) throws -> ObjectKey {
        guard case .object(let members) = json else {
            throw JSONImportError(path: path, message: "expected a \(table.name) object, found \(json.found)")
        }
        var row: [(ColumnKey, StorageValue)] = []
        var seen: Set<String> = []
        var primaryValue: StorageValue?
        for (name, value) in members {
            let memberPath = path + "." + name
            guard let spec = table.column(named: name), spec.type != .backlinks else {
                let names = table.columns.filter { $0.type != .backlinks }.map(\.name)
                throw JSONImportError(
                    path: memberPath, message: "\(table.name) has no property '\(name)'"
                        + Suggestion.didYouMean(name, among: names))
            }
            guard seen.insert(name).inserted else {
                throw JSONImportError(path: memberPath, message: "the member '\(name)' appears twice")
            }
            let stored = try convert(value, for: spec, of: table, path: memberPath)
            if spec.key == table.primaryKey { primaryValue = stored }
            row.append((spec.key, stored))
        }
        return try store(row, primaryValue: primaryValue, into: table, path: path)
    }

    private func store(
        _ row: [(ColumnKey, StorageValue)], primaryValue: StorageValue?, into table: Table, path: String
    ) throws -> ObjectKey {
        do {
            if let primaryValue, let existing = try table.find(primaryKey: primaryValue) {
                for (column, value) in row where column != table.primaryKey {
                    if try table.value(existing, column: column) != value { try table.set(existing, column: column, to: value) }
                }
                return existing
            }
            var row = row
            if let primaryKey = table.primaryKey, table.column(primaryKey)?.type == .value(.int) {
                // An integer key may be an `auto` one: a missing key takes the model's next integer, and a given
                // one moves the sequence past it, as `add` does.
                if case .int(let explicit)? = primaryValue {
                    try table.raiseSequence(ModelBinding.primaryKeySequence, toAtLeast: explicit)
                } else if primaryValue == nil {
                    row.append((primaryKey, .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))))
                }
            }
            return try table.insert(row)
        } catch let error as JSONImportError {
            throw error
        } catch {
            throw JSONImportError(path: path, message: "\(error)")
        }
    }

    /// `json` as column `spec` of `table` stores it (Strata Studio's edits of one property use it too).
    package func convert(_ json: JSONValue, for spec: ColumnSpec, of table: Table, path: String) throws -> StorageValue {
        let schemaType = schemaTypes[table.name]?[spec.name]
        switch spec.type {
        case .list(let kind), .set(let kind):
            guard case .array(let elements) = json else { throw mismatch(path, "an array", json) }
            var values: [StorageValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                let value = try self.element(
                    element, kind: kind, nullable: spec.elementsNullable, spec: spec, table: table,
                    schemaType: schemaType?.collectionElement, path: "\(path)[\(index)]")
                values.append(value)
            }
            return .list(values)
        case .map(let kind):
            guard case .object(let members) = json else { throw mismatch(path, "an object", json) }
            var entries: [String: StorageValue] = [:]
            for (key, element) in members {
                if let problem = MapKeyOrder.problem(with: key) { throw JSONImportError(path: path, message: problem) }
                entries[key] = try self.element(
                    element, kind: kind, nullable: spec.elementsNullable, spec: spec, table: table,
                    schemaType: schemaType?.collectionElement, path: "\(path).\(key)")
            }
            return .map(entries)
        case .value(let kind):
            return try element(
                json, kind: kind, nullable: spec.isNullable, spec: spec, table: table, schemaType: schemaType, path: path)
        case .backlinks:
            throw JSONImportError(path: path, message: "linking objects are computed and cannot be imported")
        }
    }

    private func element(
        _ json: JSONValue, kind: ValueKind, nullable: Bool, spec: ColumnSpec, table: Table, schemaType: PropertyType?,
        path: String
    ) throws -> StorageValue {
        if case .null = json {
            guard nullable || kind == .mixed else { throw mismatch(path, Self.expected(kind), json) }
            return .null
        }
        switch kind {
        case .link:
            guard let target = spec.target.flatMap(catalog.table) else {
                throw JSONImportError(path: path, message: "the file names no table for this link")
            }
            return .link(try link(json, to: target, path: path))
        case .mixed:
            return try mixed(json, path: path)
        default:
            guard let value = Self.primitive(json, kind: kind) else { throw mismatch(path, Self.expected(kind), json) }
            try check(value, against: schemaType?.unwrapped, path: path, json: json)
            return value
        }
    }

    /// The key of the object a link names: an embedded object given in full is inserted; any other is found by
    /// its primary key (its stable key when its model has none).
    private func link(_ json: JSONValue, to target: Table, path: String) throws -> ObjectKey {
        if target.isEmbedded { return try upsert(json, into: target, path: path) }
        let key: ObjectReference.Key
        switch json {
        case .string(let text): key = .string(text)
        case .number:
            guard let number = SnapshotFormat.integer(json) else { throw mismatch(path, "a key of \(target.name)", json) }
            key = .int(number)
        default: throw mismatch(path, "the primary key of a \(target.name)", json)
        }
        guard let found = try SnapshotReferenceLookup.find(key, in: target) else {
            let what = target.primaryKey == nil ? "stable key" : "primary key"
            throw JSONImportError(path: path, message: "no \(target.name) has the \(what) \(key)")
        }
        return found
    }

    private func mixed(_ json: JSONValue, path: String) throws -> StorageValue {
        guard case .object(let members) = json, members.count == 1, let (kind, value) = members.first else {
            throw mismatch(path, "null or an object of one member such as {\"int\": 1}", json)
        }
        let memberPath = path + "." + kind
        let kinds: [String: ValueKind] = [
            "bool": .bool, "int": .int, "double": .double, "string": .string, "data": .binary, "date": .timestamp,
            "uuid": .uuid, "decimal": .decimal, "objectId": .objectId,
        ]
        if let valueKind = kinds[kind] {
            guard let stored = Self.primitive(value, kind: valueKind) else {
                throw mismatch(memberPath, Self.expected(valueKind), value)
            }
            return stored
        }
        guard kind == "link" else {
            throw JSONImportError(
                path: memberPath, message: "'\(kind)' is not a kind of mixed value (bool, int, double, string, data, "
                    + "date, uuid, decimal, objectId, link)")
        }
        guard case .string(let model)? = value["model"], let keyJSON = value["key"] else {
            throw mismatch(memberPath, "{\"model\": name, \"key\": key}", value)
        }
        guard let target = catalog.table(named: model), !target.isEmbedded else {
            throw JSONImportError(path: memberPath + ".model", message: "no model '\(model)' to link to")
        }
        return .typedLink(target.key, try link(keyJSON, to: target, path: memberPath + ".key"))
    }

    /// A member of a primitive kind (neither a link nor a mixed value) as the store keeps it, checked against the
    /// schema's `schemaType`: what an import that streams its objects calls for each such member, which works out
    /// `path` only for an error.
    func primitive(
        _ json: JSONValue, kind: ValueKind, nullable: Bool, schemaType: PropertyType?, path: () -> String
    ) throws -> StorageValue {
        if case .null = json {
            guard nullable else { throw mismatch(path(), Self.expected(kind), json) }
            return .null
        }
        guard let value = Self.primitive(json, kind: kind) else { throw mismatch(path(), Self.expected(kind), json) }
        try check(value, against: schemaType?.unwrapped, path: path(), json: json)
        return value
    }

    /// Refuses an enumeration raw value that names no case and an integer out of a narrow width's range.
    private func check(
        _ value: StorageValue, against type: PropertyType?, path: @autoclosure () -> String, json: JSONValue
    ) throws {
        switch (type, value) {
        case (.enumeration(let cases)?, .string(let raw)) where !cases.contains(raw):
            throw JSONImportError(
                path: path(), message: "expected one of \(cases.map { "\"\($0)\"" }.joined(separator: ", ")), found "
                    + json.found)
        case (.integer(let width)?, .int(let number)) where width.bits < 64:
            let limit = Int64(1) << (width.bits - 1)
            if number < -limit || number >= limit {
                throw JSONImportError(path: path(), message: "\(number) does not fit in \(width.rawValue)")
            }
        default: break
        }
    }

    /// A JSON value of a primitive kind as the store keeps it; `nil` when it is not one.
    package static func primitive(_ json: JSONValue, kind: ValueKind) -> StorageValue? {
        switch (kind, json) {
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, _): return SnapshotFormat.integer(json).map { .int($0) }
        case (.double, _): return SnapshotFormat.double(json).map { .double($0) }
        case (.float, _): return SnapshotFormat.double(json).map { .float(Float($0)) }
        case (.string, .string(let text)): return .string(text)
        case (.binary, .string(let text)): return Data(base64Encoded: text).map { .binary(Array($0)) }
        case (.timestamp, .string(let text)): return SnapshotFormat.nanoseconds(text).map { .timestamp($0) }
        case (.uuid, .string(let text)): return UUID(uuidString: text).map { .uuid($0) }
        case (.decimal, .string(let text)), (.decimal, .number(let text)):
            guard DecimalSyntax.isValid(text) else { return nil }
            return Decimal(string: text).map { .decimal($0) }
        case (.objectId, .string(let text)): return ObjectId(text).map { .objectId($0) }
        default: return nil
        }
    }

    /// What a message says a value of `kind` should be.
    private static func expected(_ kind: ValueKind) -> String {
        switch kind {
        case .int: return "an integer"
        case .bool: return "true or false"
        case .float, .double: return "a number"
        case .string: return "a string"
        case .binary: return "a Base64 string"
        case .timestamp: return "an ISO 8601 date string"
        case .uuid: return "a UUID string"
        case .decimal: return "a decimal number as a string"
        case .objectId: return "an ObjectId string (24 hexadecimal digits)"
        case .link, .typedLink: return "a key"
        case .mixed: return "null or an object of one member such as {\"int\": 1}"
        }
    }

    private func mismatch(_ path: String, _ expected: String, _ found: JSONValue) -> JSONImportError {
        JSONImportError(path: path, message: "expected \(expected), found \(found.found)")
    }
}

import Foundation
import StrataSchema
import StrataStorage
internal import StrataSyncWire

/// What recording and applying changes both need inside one write transaction: the models, the write catalog,
/// the sync tables, and the conversions between local values and the protocol's JSON (docs/SYNC.md, "Protocol";
/// "The client", values on the wire).
final class SyncContext {
    let schema: SchemaBinding
    let catalog: Catalog
    let tables: SyncTables
    let path: String

    init(schema: SchemaBinding, catalog: Catalog, path: String) throws {
        self.schema = schema
        self.catalog = catalog
        self.tables = try SyncTables.open(in: catalog)
        self.path = path
    }

    /// The models that sync: every model but embedded ones.
    var syncedModels: [ModelBinding] { schema.models.filter { !$0.isEmbedded } }

    /// The table of `model` in the write catalog.
    func table(_ model: ModelBinding) throws -> Table {
        guard let table = catalog.table(model.tableKey) else {
            throw StrataError.schemaMismatch(path: path, detail: "the table of \(model.name) is missing")
        }
        return table
    }

    /// Whether property `index` of `model` syncs: every property does (one holding embedded objects as one nested
    /// value, see `SyncContext+Embedded.swift`) but linking objects.
    func syncs(_ model: ModelBinding, property index: Int) -> Bool {
        if case .linkingObjects = model.description.properties[index].type.unwrapped { return false }
        return true
    }

    // MARK: Object keys

    /// The protocol key of object `local` of `model`, read in `snapshot` (the write catalog, or the catalog of the
    /// version the write began from, for an object it deleted): its primary key value, or its sync id.
    func syncKey(of local: ObjectKey, model: ModelBinding, in snapshot: Catalog) throws -> SyncValue? {
        if let column = model.primaryKeyColumn {
            guard let table = snapshot.table(model.tableKey), try table.contains(local) else { return nil }
            let property = model.description.properties[column]
            return try json(try table.value(local, column: model.columns[column]), type: property.type, in: snapshot)
        }
        let ids = snapshot === catalog ? tables : try SyncTables.existing(in: snapshot)
        return try ids?.syncID(model: model.name, local: local).map(SyncValue.string)
    }

    /// The protocol key of object `local` of `model` as the write began (``SyncBase``): for an object it deleted,
    /// or changed the key of.
    func syncKey(of local: ObjectKey, model: ModelBinding, in base: SyncBase) throws -> SyncValue? {
        try base.syncKey(of: local, model: model)
    }

    /// The local object a protocol key names, if it exists here.
    func localKey(of key: SyncValue, model: ModelBinding) throws -> ObjectKey? {
        if let column = model.primaryKeyColumn {
            let property = model.description.properties[column]
            let value = try storage(key, type: property.type, context: "\(model.name)'s key")
            return try table(model).find(primaryKey: value)
        }
        guard let state = try tables.state(model: model.name, key: key), let local = state.local else { return nil }
        let key = ObjectKey(local)
        return try table(model).contains(key) ? key : nil
    }

    // MARK: Values

    /// The JSON of a stored value of a property of type `type` (a scalar, or an element of a collection), read in
    /// `snapshot` (links are followed there).
    func json(_ value: StorageValue, type: PropertyType, in snapshot: Catalog) throws -> SyncValue {
        let type = type.unwrapped
        switch (type, value) {
        case (_, .null): return .null
        case (.link(let name), .link(let target)):
            guard let model = schema.model(named: name) else { return .null }
            return try syncKey(of: target, model: model, in: snapshot) ?? .null
        case (.any, _): return Self.mixedJSON(value)
        case (_, .bool(let flag)): return .bool(flag)
        case (_, .int(let number)): return .integer(number)
        case (_, .float(let number)): return .number(Double(number))
        case (_, .double(let number)): return .number(number)
        case (_, .string(let text)): return .string(text)
        case (_, .timestamp(let nanoseconds)):
            if nanoseconds % 1_000_000_000 == 0 { return .integer(nanoseconds / 1_000_000_000) }
            return .number(Double(nanoseconds) / 1e9)
        case (_, .binary(let bytes)): return .string(Data(bytes).base64EncodedString())
        case (_, .uuid(let uuid)): return .string(uuid.uuidString.lowercased())
        case (_, .decimal(let decimal)): return .string(decimal.description)
        case (_, .objectId(let id)): return .string(id.stringValue)
        default: return .null
        }
    }

    /// The JSON of a value a property of type `type` held as the write began (``SyncBase``): a link names its
    /// target's key then.
    func json(_ value: StorageValue, type: PropertyType, in base: SyncBase) throws -> SyncValue {
        if case .link(let name) = type.unwrapped, case .link(let target) = value {
            guard let model = schema.model(named: name) else { return .null }
            return try syncKey(of: target, model: model, in: base) ?? .null
        }
        return try json(value, type: type, in: catalog)
    }

    /// The stored value of `json` for a property (or element) of type `type`.
    /// - Throws: `StrataError.invalidArgument` naming `context` when the JSON does not fit the type.
    func storage(_ json: SyncValue, type: PropertyType, context: @autoclosure () -> String) throws -> StorageValue {
        let type = type.unwrapped
        func mismatch() -> StrataError {
            StrataError.invalidArgument(
                "sync: \(context()) is \(type.schemaSpelling); the server sent \(json.canonicalText.prefix(60))")
        }
        switch (type, json) {
        case (_, .null): return .null
        case (.any, _): return Self.mixedValue(json)
        case (.link(let name), _):
            guard let model = schema.model(named: name) else { return .null }
            return try localKey(of: json, model: model).map(StorageValue.link) ?? .null
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.integer, .integer(let number)): return .int(number)
        case (.float, .integer(let number)): return .float(Float(number))
        case (.float, .number(let number)): return .float(Float(number))
        case (.double, .integer(let number)): return .double(Double(number))
        case (.double, .number(let number)): return .double(number)
        case (.string, .string(let text)), (.enumeration, .string(let text)): return .string(text)
        case (.date, .integer(let seconds)): return .timestamp(seconds &* 1_000_000_000)
        case (.date, .number(let seconds)): return .timestamp(Int64((seconds * 1e6).rounded()) &* 1000)
        case (.data, .string(let text)):
            guard let data = Data(base64Encoded: text) else { throw mismatch() }
            return .binary(Array(data))
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw mismatch() }
            return .uuid(uuid)
        case (.decimal, .string(let text)):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { throw mismatch() }
            return .decimal(decimal)
        case (.decimal, .integer(let number)): return .decimal(Decimal(number))
        case (.objectId, .string(let text)):
            guard let id = ObjectId(text) else { throw mismatch() }
            return .objectId(id)
        default: throw mismatch()
        }
    }

    /// A mixed value as JSON: JSON's own types as themselves, other kinds as their usual text (dates as seconds).
    static func mixedJSON(_ value: StorageValue) -> SyncValue {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(number)
        case .float(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .timestamp(let nanoseconds): return .number(Double(nanoseconds) / 1e9)
        case .binary(let bytes): return .string(Data(bytes).base64EncodedString())
        case .uuid(let uuid): return .string(uuid.uuidString.lowercased())
        case .decimal(let decimal): return .string(decimal.description)
        case .objectId(let id): return .string(id.stringValue)
        default: return .null  // nil, and links, which have no JSON form
        }
    }

    /// A mixed value from JSON: booleans, integers, numbers and strings as themselves, arrays and objects as text.
    static func mixedValue(_ json: SyncValue) -> StorageValue {
        switch json {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .int(number)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array, .object: return .string(json.canonicalText)
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// One object seen through the untyped, Realm-style migration API: its properties are read and written by name.
///
/// Values are plain Swift values: `Int` for every integer width, `Bool`, `Float`, `Double`, `String` (also for
/// enumerations), `Date`, `Data`, `UUID`, a `MigrationObject` for a link, an array for a list, and `nil`.
/// The old object of a step is read-only. A value of the wrong type, or a write to an old object, abandons the
/// migration with an error naming the property (subscripts cannot throw; the error surfaces when the migration
/// block returns).
public final class MigrationObject {
    let row: MigrationRow

    init(row: MigrationRow) {
        self.row = row
    }

    /// The model's name in the version this object belongs to.
    public var typeName: String { row.model.name }

    /// The schema version this object belongs to (the step's old or new version).
    public var schemaVersion: Int { row.model.version }

    /// The names of its stored properties, in column order.
    public var propertyNames: [String] { row.model.description.properties.map(\.name) }

    /// The value of the stored property `name`; `nil` for nil or for a property this version does not have
    /// (which also records an error naming it).
    public subscript(name: String) -> Any? {
        get {
            guard let column = column(named: name) else { return nil }
            let value = row.read(column) { try $0.value(row.key, column: $1) } ?? .null
            return swiftValue(value, column: column)
        }
        set {
            guard let column = column(named: name) else { return }
            guard let value = MigrationValue.storageValue(
                newValue, for: row.model.description.properties[column], linkKey: { linkKey(for: $0, column: column) })
            else {
                return row.session.record(row.session.failure(
                    "\(typeName).\(name) of version \(schemaVersion) cannot hold \(String(describing: newValue))"))
            }
            row.write(column) { value }
        }
    }

    private func column(named name: String) -> Int? {
        guard let column = row.model.description.column(named: name) else {
            row.session.record(row.session.failure(
                "\(typeName) has no stored property '\(name)' in version \(schemaVersion); its properties are "
                    + propertyNames.joined(separator: ", ")))
            return nil
        }
        return column
    }

    private func linkKey(for object: MigrationObject, column: Int) -> ObjectKey? {
        guard object.row.session === row.session,
            object.row.model.tableKey == row.model.linkTargets[column]?.tableKey
        else {
            row.session.record(row.session.failure(
                "\(typeName).\(row.model.propertyName(column)) links to \(row.model.linkTargets[column]?.name ?? "?"), "
                    + "not to a \(object.typeName)"))
            return nil
        }
        return object.row.key
    }

    private func swiftValue(_ value: StorageValue, column: Int) -> Any? {
        switch value {
        case .link(let key):
            return row.linkedRow(column, key: key).map(MigrationObject.init)
        case .list(let elements):
            return elements.map { swiftValue($0, column: column) as Any }
        case .map(let entries):
            return entries.mapValues { swiftValue($0, column: column) as Any }
        default:
            return MigrationValue.swiftValue(value, type: row.model.description.properties[column].type)
        }
    }
}

/// Conversions between the untyped API's Swift values and the store's values.
enum MigrationValue {
    /// The Swift value of a stored primitive of a property of `type`.
    static func swiftValue(_ value: StorageValue, type: PropertyType) -> Any? {
        switch value {
        case .null, .link, .list, .map: return nil
        case .int(let number): return Int(number)
        case .bool(let flag): return flag
        case .float(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .binary(let bytes): return Data(bytes)
        case .timestamp(let nanoseconds): return ValueConversion.date(nanoseconds)
        case .uuid(let uuid): return uuid
        case .decimal(let number): return number
        case .objectId(let id): return id
        case .typedLink: return nil
        }
    }

    /// The stored form of `value` for `property`, or `nil` when it does not fit.
    static func storageValue(
        _ value: Any?, for property: PropertyDefinition, linkKey: (MigrationObject) -> ObjectKey?
    ) -> StorageValue? {
        guard let value else { return property.type.isOptional ? .null : nil }
        if case .map(let element) = property.type {
            guard let entries = value as? [String: Any?] ?? (value as? [String: Any])?.mapValues({ Optional($0) })
            else { return nil }
            let elementProperty = PropertyDefinition(name: property.name, type: element, location: property.location)
            var stored: [String: StorageValue] = [:]
            for (key, item) in entries {
                guard MapKeyOrder.problem(with: key) == nil,
                    let converted = storageValue(item, for: elementProperty, linkKey: linkKey)
                else { return nil }
                stored[key] = converted
            }
            return .map(stored)
        }
        if let element = property.type.collectionElement {
            guard let elements = value as? [Any?] ?? (value as? [Any])?.map({ Optional($0) }) else { return nil }
            var stored: [StorageValue] = []
            for item in elements {
                let elementProperty = PropertyDefinition(name: property.name, type: element, location: property.location)
                guard let converted = storageValue(item, for: elementProperty, linkKey: linkKey) else { return nil }
                stored.append(converted)
            }
            return .list(stored)
        }
        switch property.type.unwrapped {
        case .link:
            guard let object = value as? MigrationObject, let key = linkKey(object) else { return nil }
            return .link(key)
        case .bool: return (value as? Bool).map { .bool($0) }
        case .integer: return integer(value).map { .int($0) }
        case .float: return (value as? Float).map { .float($0) } ?? (value as? Double).map { .float(Float($0)) }
        case .double: return (value as? Double).map { .double($0) } ?? integer(value).map { .double(Double($0)) }
        case .string: return (value as? String).map { .string($0) }
        case .enumeration(let cases):
            guard let text = value as? String, cases.contains(text) else { return nil }
            return .string(text)
        case .date: return (value as? Date).map { .timestamp(ValueConversion.timestamp($0)) }
        case .data: return (value as? Data).map { .binary(Array($0)) }
        case .uuid: return (value as? UUID).map { .uuid($0) }
        case .decimal: return (value as? Decimal).map { .decimal($0) } ?? integer(value).map { .decimal(Decimal($0)) }
        case .objectId: return (value as? ObjectId).map { .objectId($0) }
        case .any:
            if let mixed = value as? AnyValue {
                if case .object = mixed { return nil }
                return ValueConversion.storageValue(mixed.persistedValue)
            }
            return (value as? any ListElement).flatMap { ValueConversion.storageValue($0.persistedValue) }
        default: return nil
        }
    }

    private static func integer(_ value: Any) -> Int64? {
        switch value {
        case let number as Int: return Int64(number)
        case let number as Int64: return number
        case let number as Int32: return Int64(number)
        case let number as Int16: return Int64(number)
        case let number as Int8: return Int64(number)
        default: return nil
        }
    }
}

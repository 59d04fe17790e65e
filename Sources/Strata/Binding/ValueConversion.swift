#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// Conversions between the object layer's values and the store's.
enum ValueConversion {
    /// Nanoseconds since 1970 for a date, clamped to what the store keeps (years 1678 to 2262).
    static func timestamp(_ date: Date) -> Int64 {
        let nanoseconds = (date.timeIntervalSince1970 * 1_000_000_000).rounded()
        if nanoseconds >= 9.2e18 { return Int64.max }
        if nanoseconds <= -9.2e18 { return Int64.min }
        return Int64(nanoseconds)
    }

    /// The date of a stored timestamp.
    static func date(_ timestamp: Int64) -> Date {
        Date(timeIntervalSince1970: Double(timestamp) / 1_000_000_000)
    }

    /// A primitive persisted value in the store's terms; `nil` for an object (which the caller must add first).
    ///
    /// Inlined into `add`, which converts every property of every object; lists convert out of line.
    @inline(__always)
    static func storageValue(_ value: PersistedValue) -> StorageValue? {
        switch value {
        case .null, .bool, .int, .float, .double, .string: return value.primitiveStorageValue
        case .data(let value): return .binary(Array(value))
        case .date(let value): return .timestamp(timestamp(value))
        case .uuid(let value): return .uuid(value)
        case .object: return nil
        case .list(let values): return storageList(values)
        case .map(let entries): return storageMap(entries)
        case .decimal(let value): return .decimal(value)
        case .objectId(let value): return .objectId(value)
        }
    }

    /// The elements of a list in the store's terms; `nil` when one is an object.
    private static func storageList(_ values: [PersistedValue]) -> StorageValue? {
        var converted: [StorageValue] = []
        converted.reserveCapacity(values.count)
        for value in values {
            guard let element = storageValue(value) else { return nil }
            converted.append(element)
        }
        return .list(converted)
    }

    /// The entries of a map in the store's terms; `nil` when one is an object.
    private static func storageMap(_ entries: [String: PersistedValue]) -> StorageValue? {
        var converted: [String: StorageValue] = [:]
        converted.reserveCapacity(entries.count)
        for (key, value) in entries {
            guard let element = storageValue(value) else { return nil }
            converted[key] = element
        }
        return .map(converted)
    }

    /// A stored primitive as a persisted value; links, also a mixed value's, are the caller's (they need the target
    /// model).
    static func persistedValue(_ value: StorageValue) -> PersistedValue {
        switch value {
        case .null, .link: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .float(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .binary(let value): return .data(Data(value))
        case .timestamp(let value): return .date(date(value))
        case .uuid(let value): return .uuid(value)
        case .list(let values): return .list(values.map(persistedValue))
        case .map(let entries): return .map(entries.mapValues(persistedValue))
        case .decimal(let value): return .decimal(value)
        case .objectId(let value): return .objectId(value)
        case .typedLink: return .null
        }
    }

    /// The value a property's column is filled with when the column is added to existing objects: its `default:`
    /// (`auto` and no default give the type's zero value, or nil for an optional).
    static func defaultValue(for property: PropertyDefinition) -> StorageValue? {
        guard let defaultValue = property.defaultValue else { return nil }
        let type = property.type.unwrapped
        switch (defaultValue, type) {
        case (.null, _): return property.type.isNullable ? .null : nil
        case (.bool(let value), .bool): return .bool(value)
        case (.integer(let value), .integer): return .int(value)
        case (.integer(let value), .double): return .double(Double(value))
        case (.integer(let value), .float): return .float(Float(value))
        case (.double(let value), .double): return .double(value)
        case (.double(let value), .float): return .float(Float(value))
        case (.string(let value), .string), (.string(let value), .enumeration): return .string(value)
        case (.string(let value), .uuid): return UUID(uuidString: value).map { .uuid($0) }
        case (.integer(let value), .decimal): return .decimal(Decimal(value))
        case (.string(let value), .decimal): return Decimal(string: value).map { .decimal($0) }
        case (.string(let value), .objectId): return ObjectId(value).map { .objectId($0) }
        case (.string(let value), .date):
            return (try? Date(value, strategy: .iso8601)).map { .timestamp(timestamp($0)) }
        default: return nil
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type a ``List`` can hold: the schema's primitive types, their optionals, and models (`Object` subclasses).
public protocol ListElement {
    /// The value in the store's terms (integers widened to `Int64`, models as `.object`).
    var persistedValue: PersistedValue { get }

    /// The element a persisted value stands for, or `nil` if the value is of another kind.
    static func fromPersistedValue(_ value: PersistedValue) -> Self?
}

extension Bool: ListElement {
    /// `.bool(self)`
    @inlinable public var persistedValue: PersistedValue { .bool(self) }
    /// The boolean of a `.bool` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> Bool? {
        if case .bool(let bool) = value { return bool }
        return nil
    }
}

extension Float: ListElement {
    /// `.float(self)`
    @inlinable public var persistedValue: PersistedValue { .float(self) }
    /// The number of a `.float` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> Float? {
        if case .float(let number) = value { return number }
        return nil
    }
}

extension Double: ListElement {
    /// `.double(self)`
    @inlinable public var persistedValue: PersistedValue { .double(self) }
    /// The number of a `.double` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> Double? {
        if case .double(let number) = value { return number }
        return nil
    }
}

extension String: ListElement {
    /// `.string(self)`
    @inlinable public var persistedValue: PersistedValue { .string(self) }
    /// The text of a `.string` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}

extension Data: ListElement {
    /// `.data(self)`
    public var persistedValue: PersistedValue { .data(self) }
    /// The bytes of a `.data` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> Data? {
        if case .data(let bytes) = value { return bytes }
        return nil
    }
}

extension Date: ListElement {
    /// `.date(self)`
    public var persistedValue: PersistedValue { .date(self) }
    /// The instant of a `.date` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> Date? {
        if case .date(let date) = value { return date }
        return nil
    }
}

extension UUID: ListElement {
    /// `.uuid(self)`
    public var persistedValue: PersistedValue { .uuid(self) }
    /// The identifier of a `.uuid` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> UUID? {
        if case .uuid(let uuid) = value { return uuid }
        return nil
    }
}

/// Integers of every width are stored as `Int64`; reading one back that does not fit gives `nil`.
extension ListElement where Self: FixedWidthInteger {
    /// `.int(Int64(self))`
    ///
    /// Inlinable so that generated models (another module) read an integer property without a generic call:
    /// `add` reads every property of every object.
    @inlinable public var persistedValue: PersistedValue { .int(Int64(self)) }
    /// The integer of an `.int` value, or `nil` if it does not fit this width.
    public static func fromPersistedValue(_ value: PersistedValue) -> Self? {
        if case .int(let integer) = value { return Self(exactly: integer) }
        return nil
    }
}

extension Int: ListElement {}
extension Int64: ListElement {}
extension Int32: ListElement {}
extension Int16: ListElement {}
extension Int8: ListElement {}

extension Optional: ListElement where Wrapped: ListElement {
    /// The wrapped value's persisted value, or `.null`.
    public var persistedValue: PersistedValue {
        switch self {
        case .some(let wrapped): return wrapped.persistedValue
        case .none: return .null
        }
    }

    /// `.some(nil)` for `.null`, the wrapped element otherwise (`nil` if it is of another kind).
    public static func fromPersistedValue(_ value: PersistedValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.fromPersistedValue(value).map { .some($0) }
    }
}

extension ObjectBase: ListElement {
    /// `.object(self)`
    public var persistedValue: PersistedValue { .object(self) }
    /// The object of an `.object` value, if it is an instance of this model.
    public static func fromPersistedValue(_ value: PersistedValue) -> Self? {
        if case .object(let object) = value { return object as? Self }
        return nil
    }
}

extension Decimal: ListElement {
    /// `.decimal(self)`
    public var persistedValue: PersistedValue { .decimal(self) }
    /// The number of a `.decimal` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> Decimal? {
        if case .decimal(let number) = value { return number }
        return nil
    }
}

extension ObjectId: ListElement {
    /// `.objectId(self)`
    public var persistedValue: PersistedValue { .objectId(self) }
    /// The identifier of an `.objectId` value.
    public static func fromPersistedValue(_ value: PersistedValue) -> ObjectId? {
        if case .objectId(let id) = value { return id }
        return nil
    }
}

/// A mixed value is stored as the value it holds (`.none` as `.null`, an object as `.object`).
extension AnyValue: ListElement {
    /// The held value's persisted value.
    public var persistedValue: PersistedValue {
        switch self {
        case .none: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(Int64(value))
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .data(let value): return .data(value)
        case .date(let value): return .date(value)
        case .uuid(let value): return .uuid(value)
        case .decimal(let value): return .decimal(value)
        case .objectId(let value): return .objectId(value)
        case .object(let object): return .object(object)
        }
    }

    /// The mixed value holding `value` (a `float` as `.double`); `nil` for a list, a map or an embedded object.
    public static func fromPersistedValue(_ value: PersistedValue) -> AnyValue? {
        switch value {
        case .null: return AnyValue.none
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(Int(value))
        case .float(let value): return .double(Double(value))
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .data(let value): return .data(value)
        case .date(let value): return .date(value)
        case .uuid(let value): return .uuid(value)
        case .decimal(let value): return .decimal(value)
        case .objectId(let value): return .objectId(value)
        // Mixed values never hold embedded objects (as in Realm): an embedded object is part of its owner.
        case .object(let object): return (object as? Object).map { .object($0) }
        case .list, .map: return nil
        }
    }
}

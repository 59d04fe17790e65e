#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A mixed value: what a property of schema type `any` holds (Realm's `AnyRealmValue`).
///
/// A value of any primitive kind, or a link to an object of any model (`.object`). A linked object's deletion
/// turns the value into `.none`. Queries compare numbers across `.int`, `.double` and `.decimal` by value, as
/// Realm does (docs/QUERIES.md, "Mixed values").
public enum AnyValue: CustomStringConvertible {
    /// No value (null).
    case none
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A floating-point number (a stored `float` reads as `.double`).
    case double(Double)
    /// Text.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A point in time.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// An exact decimal number.
    case decimal(Decimal)
    /// An `ObjectId`.
    case objectId(ObjectId)
    /// A link to an object of any model (an unmanaged object is added with the object that holds the value).
    case object(Object)

    /// The value rendered for messages and `print`: `nil`, `42`, `"text"`, `Person { … }`.
    public var description: String {
        switch self {
        case .none: return "nil"
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .data(let value): return "<\(value.count) bytes>"
        case .date(let value): return String(describing: value)
        case .uuid(let value): return value.uuidString
        case .decimal(let value): return "\(value)"
        case .objectId(let value): return value.stringValue
        case .object(let object): return ObjectDescription.describe(object)
        }
    }

    /// Whether this is `.none`.
    public var isNone: Bool {
        if case .none = self { return true }
        return false
    }

    /// The linked object, for `.object`.
    public var object: Object? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The number as a `Double`, for `.int`, `.double` and `.decimal`.
    public var numberValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .decimal(let value): return Double("\(value)")
        default: return nil
        }
    }
}

extension AnyValue: Equatable {
    /// Equal kinds with equal values; objects are equal when they are the same instance or the same stored object.
    /// Numbers of different kinds are not equal here (`.int(1) != .double(1)`): queries compare them by value.
    public static func == (lhs: AnyValue, rhs: AnyValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.decimal(let a), .decimal(let b)): return a == b
        case (.objectId(let a), .objectId(let b)): return a == b
        case (.object(let a), .object(let b)): return a === b || a.isSameObject(as: b)
        default: return false
        }
    }
}

extension AnyValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral
{
    /// `.none`.
    public init(nilLiteral: ()) { self = .none }
    /// `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

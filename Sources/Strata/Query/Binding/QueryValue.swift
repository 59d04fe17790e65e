import Foundation

/// A constant in a query: a literal from the predicate string or an argument passed beside it.
///
/// This is the constant as written, before binding; ``QueryScalar`` (internal) is the value a running query
/// compares. Both exist because they answer different needs, and neither can serve for the other:
/// - `QueryValue` is public (``QueryConstant/queryValue`` returns it) and `Sendable`, since parses are
///   kept in a process-wide cache; it keeps what binding must check and what `explain` shows: a `Date` as given,
///   a list argument not yet expanded (`IN %@`), and an object argument's model name (so `mentor == %@` with an
///   object of another model is refused).
/// - `QueryScalar` holds values as the store keeps them, so that a stored value read from an object and a
///   constant compare without conversion on every object: dates as nanosecond timestamps (`Date` would be
///   converted at each comparison), bytes as `[UInt8]`, an object as its key alone (a link read from a column
///   has no model name to carry), and no lists (the binder expands them).
/// The binder converts each `QueryValue` into `QueryScalar` once (`QueryScalar.init(_: QueryValue)`).
public enum QueryValue: Hashable, Sendable, CustomStringConvertible {
    /// `nil` / `NULL`
    case null
    /// `true` / `false` / `YES` / `NO`
    case bool(Bool)
    /// Any integer (every integer property width compares as Int64).
    case int(Int64)
    /// `Float` and `Double`.
    case double(Double)
    /// Strings and enum raw values.
    case string(String)
    /// `Data`.
    case data(Data)
    /// `Date`.
    case date(Date)
    /// `UUID`.
    case uuid(UUID)
    /// `{ a, b, c }` or an array argument.
    case list([QueryValue])
    /// A managed object passed as an argument (`mentor == %@`): its model and its key in that model's table.
    case object(model: String, key: Int64)
    /// `Decimal`, or `decimal(…)` in the predicate.
    case decimal(Decimal)
    /// `ObjectId`, or `oid(…)` in the predicate.
    case objectId(ObjectId)

    /// Converts a Swift argument (`%@`, `%d`, `%f`) into a query value.
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the argument when its type cannot appear in a query.
    static func argument(_ value: Any?, predicate: String, offset: Int) throws -> QueryValue {
        guard let value else { return .null }
        // Strings first: the most common argument, and each failed cast before the right one costs a dynamic cast.
        if let text = value as? String { return .string(text) }
        switch value {
        // An optional passed through `Any...` arrives boxed (`nickname == %@` with a `String?`): nil or its value.
        case let optional as any OptionalArgument:
            return try argument(optional.wrappedArgument, predicate: predicate, offset: offset)
        case let value as QueryValue: return value
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(Int64(value))
        case let value as Int64: return .int(value)
        case let value as Int32: return .int(Int64(value))
        case let value as Int16: return .int(Int64(value))
        case let value as Int8: return .int(Int64(value))
        case let value as UInt8: return .int(Int64(value))
        case let value as UInt16: return .int(Int64(value))
        case let value as UInt32: return .int(Int64(value))
        case let value as Double: return .double(value)
        case let value as Float: return .double(Double(value))
        case let value as Substring: return .string(String(value))
        case let value as Data: return .data(value)
        case let value as Date: return .date(value)
        case let value as UUID: return .uuid(value)
        case let value as Decimal: return .decimal(value)
        case let value as ObjectId: return .objectId(value)
        case let value as AnyValue: return try argument(value, predicate: predicate, offset: offset)
        case let value as any RawRepresentable<String>: return .string(value.rawValue)
        case let object as ObjectBase:
            guard let row = object.managedAccessor as? ManagedRow, !row.isInvalidated else {
                throw StrataError.invalidPredicate(
                    predicate: predicate, offset: offset,
                    message: "a \(type(of: object)) argument must be a stored object (add it first; it must not be deleted)")
            }
            return .object(model: row.model.name, key: row.key.rawValue)
        case let values as [Any?]:
            return .list(try values.map { try argument($0, predicate: predicate, offset: offset) })
        case let values as any Collection:
            return .list(try values.map { try argument($0, predicate: predicate, offset: offset) })
        default:
            if case Optional<Any>.none = value as Any? { return .null }
            throw StrataError.invalidPredicate(
                predicate: predicate, offset: offset,
                message: "an argument of type \(type(of: value)) cannot be used in a query")
        }
    }

    /// The value as it would be written in a predicate.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .data(let value): return "<\(value.count) bytes>"
        case .date(let value): return value.formatted(.iso8601)
        case .uuid(let value): return value.uuidString
        case .list(let values): return "{" + values.map(\.description).joined(separator: ", ") + "}"
        case .object(let model, let key): return "\(model)(O\(key))"
        case .decimal(let value): return "decimal(\(value))"
        case .objectId(let value): return "oid(\(value))"
        }
    }

    /// A mixed value as the query value it holds (`.none` is `nil`).
    private static func argument(_ value: AnyValue, predicate: String, offset: Int) throws -> QueryValue {
        // An object must be managed to be an argument (its `queryValue` would be `.null`); every other value is
        // its constant's query value.
        if case .object(let object) = value { return try argument(object, predicate: predicate, offset: offset) }
        return value.queryValue
    }
}

/// An `Optional` seen through `Any`, so that a query argument of an optional type counts as its value or nil.
protocol OptionalArgument {
    /// The value, or `nil`.
    var wrappedArgument: Any? { get }
}

extension Optional: OptionalArgument {
    var wrappedArgument: Any? { self.map { $0 as Any } }
}

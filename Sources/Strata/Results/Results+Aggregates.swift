import Foundation
import StrataStorage

/// A value that `min`, `max`, `sum` and `average(ofProperty:)` can return: the integer types, `Float`,
/// `Double` and `Date`.
public protocol AggregatableValue {
    /// The value of an aggregate computed over stored values.
    init(aggregate: AggregateResult)
}

/// What an aggregate computed, before it is converted to the caller's type.
public enum AggregateResult: Sendable {
    /// A sum, minimum or maximum of integers.
    case int(Int64)
    /// Any aggregate of floating-point values, and averages.
    case double(Double)
    /// A minimum or maximum of dates.
    case date(Date)
    /// An exact decimal (the sum, average, minimum or maximum of a `decimal` property).
    case decimal(Decimal)

    var number: Double {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .date(let value): return value.timeIntervalSince1970
        case .decimal(let value): return Double("\(value)") ?? .nan
        }
    }

    var integer: Int64 {
        switch self {
        case .int(let value): return value
        case .double(let value): return value.isFinite ? Int64(exactly: value.rounded(.towardZero)) ?? 0 : 0
        case .date(let value): return Int64(value.timeIntervalSince1970)
        case .decimal: return number.isFinite ? Int64(exactly: number.rounded(.towardZero)) ?? 0 : 0
        }
    }
}

extension Int: AggregatableValue {
    /// Converts an aggregate (truncating a fraction).
    public init(aggregate: AggregateResult) { self = Int(truncatingIfNeeded: aggregate.integer) }
}
extension Int64: AggregatableValue {
    /// Converts an aggregate (truncating a fraction).
    public init(aggregate: AggregateResult) { self = aggregate.integer }
}
extension Int32: AggregatableValue {
    /// Converts an aggregate (truncating a fraction).
    public init(aggregate: AggregateResult) { self = Int32(truncatingIfNeeded: aggregate.integer) }
}
extension Int16: AggregatableValue {
    /// Converts an aggregate (truncating a fraction).
    public init(aggregate: AggregateResult) { self = Int16(truncatingIfNeeded: aggregate.integer) }
}
extension Int8: AggregatableValue {
    /// Converts an aggregate (truncating a fraction).
    public init(aggregate: AggregateResult) { self = Int8(truncatingIfNeeded: aggregate.integer) }
}
extension Double: AggregatableValue {
    /// Converts an aggregate.
    public init(aggregate: AggregateResult) { self = aggregate.number }
}
extension Float: AggregatableValue {
    /// Converts an aggregate.
    public init(aggregate: AggregateResult) { self = Float(aggregate.number) }
}
extension Decimal: AggregatableValue {
    /// The aggregate as a decimal: exact for a `decimal` property, a double through its shortest text.
    public init(aggregate: AggregateResult) {
        switch aggregate {
        case .decimal(let value): self = value
        case .int(let value): self = Decimal(value)
        case .double(let value): self = value.isFinite ? Decimal(string: "\(value)") ?? .nan : .nan
        case .date(let value): self = Decimal(string: "\(value.timeIntervalSince1970)") ?? .nan
        }
    }
}
extension Date: AggregatableValue {
    /// Converts an aggregate (a number is seconds since 1970).
    public init(aggregate: AggregateResult) {
        if case .date(let date) = aggregate { self = date } else { self = Date(timeIntervalSince1970: aggregate.number) }
    }
}

extension Results {
    /// The smallest non-nil value of a numeric or date property (or a path through to-one links), or `nil`
    /// when there is none.
    public func min<T: AggregatableValue>(ofProperty property: String) -> T? {
        aggregate(.min, property).map(T.init(aggregate:))
    }

    /// The largest non-nil value of a numeric or date property, or `nil` when there is none.
    public func max<T: AggregatableValue>(ofProperty property: String) -> T? {
        aggregate(.max, property).map(T.init(aggregate:))
    }

    /// The sum of the non-nil values of a numeric property; `0` for no objects.
    public func sum<T: AggregatableValue>(ofProperty property: String) -> T {
        T(aggregate: aggregate(.sum, property) ?? .int(0))
    }

    /// The mean of the non-nil values of a numeric property, or `nil` when there is none.
    public func average(ofProperty property: String) -> Double? {
        aggregate(.avg, property)?.number
    }

    /// `function` over the property's values; a storage failure stops the program with a message naming it.
    private func aggregate(_ function: AggregateFunction, _ property: String) -> AggregateResult? {
        // Results with an unknown sort or distinct key path hold no objects for the non-throwing reads.
        if query.failure != nil { return nil }
        do {
            return try checkedAggregate(function, property)
        } catch {
            database.fatal(error, while: "aggregating \(property) of Results<\(Element.self)>")
        }
    }

    /// `function` over the property's values, reading the column of each selected object; a storage failure is
    /// thrown (naming the file). A property that cannot be aggregated is a programming error and stops.
    func checkedAggregate(_ function: AggregateFunction, _ property: String) throws -> AggregateResult? {
        let path: BoundPath
        switch resolveSingle(property, purpose: "aggregate") {
        case .success(let resolved): path = resolved
        case .failure(let error): preconditionFailure("Strata: \(error)")
        }
        let valid = function == .min || function == .max ? path.kind.isNumeric || path.kind == .date : path.kind.isNumeric
        precondition(valid, "Strata: @\(function.rawValue) of '\(property)' of \(model.name): it is \(path.kind), "
            + "not a number\(function == .min || function == .max ? " or a date" : "")")
        return try database.withAccess("aggregating Results<\(Element.self)>") {
            try database.storageRead {
                if let computed = try query.columnAggregate(function, of: path, in: database, model: model) {
                    return Self.result(computed)
                }
                let keys = try evaluatedKeys()
                let evaluator = ObjectEvaluator(database: database)
                var values: [QueryScalar] = []
                values.reserveCapacity(keys.count)
                for key in keys {
                    let value = try evaluator.values(of: path, from: .object(key)).first ?? .null
                    if !value.isNull { values.append(value) }
                }
                return Self.result(ObjectEvaluator.aggregate(function, values, integers: path.kind == .integer))
            }
        }
    }

    private static func result(_ value: QueryScalar) -> AggregateResult? {
        switch value {
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .timestamp(let value): return .date(ValueConversion.date(value))
        case .decimal(let value): return .decimal(value)
        default: return nil
        }
    }
}

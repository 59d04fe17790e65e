/// The width of an integer property. `int` is Swift's `Int` (64 bits on every supported platform).
public enum IntegerWidth: String, Hashable, Sendable, CaseIterable {
    /// `int`: Swift `Int`.
    case int
    /// `int64`: `Int64`.
    case int64
    /// `int32`: `Int32`.
    case int32
    /// `int16`: `Int16`.
    case int16
    /// `int8`: `Int8`.
    case int8

    /// Number of bits the values take.
    public var bits: Int {
        switch self {
        case .int, .int64: return 64
        case .int32: return 32
        case .int16: return 16
        case .int8: return 8
        }
    }
}

/// The type of a property as a schema file declares it.
public indirect enum PropertyType: Hashable, Sendable {
    /// `bool`
    case bool
    /// `int`, `int64`, `int32`, `int16`, `int8`
    case integer(IntegerWidth)
    /// `float`
    case float
    /// `double`
    case double
    /// `string`
    case string
    /// `date`
    case date
    /// `data`
    case data
    /// `uuid`
    case uuid
    /// `{ enum: [a, b] }`: a nested `enum: String` with these cases, stored as its raw string.
    case enumeration([String])
    /// `Model?`: a to-one link, always optional (spelled `.optional(.link("Model"))`).
    case link(String)
    /// `T?` for a primitive `T`, or `Model?` for a to-one link.
    case optional(PropertyType)
    /// `[T]`: a list of primitives or of links (`[Model]`), ordered.
    case list(PropertyType)
    /// `{ linkingObjects: Model.property }`: the inverse of a link or list, read-only, kept by the store.
    case linkingObjects(model: String, property: String)
    /// `set<T>`: distinct values of a primitive `T` or `T?`, or distinct objects of a model (`set<Person>`, whose
    /// element is `.link("Person")`), unordered.
    case set(PropertyType)
    /// `map<T>`: values of a primitive `T` or `T?`, or optional links (`map<Person?>`, whose element is
    /// `.optional(.link("Person"))`), under string keys.
    case map(PropertyType)
    /// `decimal`: an exact decimal number (`Decimal`), compared and sorted by value.
    case decimal
    /// `objectId`: a 12-byte `ObjectId` (seconds, random bytes, counter).
    case objectId
    /// `any`: a mixed value (`AnyValue`): null, a primitive of any other kind, or a link to an object of any
    /// model. Always nullable without `?` (`any?` is read as `any`).
    case any

    /// The type without its optional wrapper.
    public var unwrapped: PropertyType {
        if case .optional(let wrapped) = self { return wrapped }
        return self
    }

    /// The element type of a list, set or map; `nil` for any other type.
    public var collectionElement: PropertyType? {
        switch self {
        case .list(let element), .set(let element), .map(let element): return element
        default: return nil
        }
    }

    /// Whether `nil` is a value of this type.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// Whether null is a value of this type: an optional, or `any` (which holds null itself).
    public var isNullable: Bool { isOptional || self == .any }

    /// The model this type links to (through a to-one link, a list, set or map of links or linking objects), if any.
    public var linkedModel: String? {
        switch self {
        case .link(let model), .linkingObjects(let model, _): return model
        case .optional(let wrapped), .list(let wrapped), .set(let wrapped), .map(let wrapped): return wrapped.linkedModel
        default: return nil
        }
    }
}

import StrataSchema

/// The generated call to the accessor method family that reads and writes a scalar type: `int`, `bool`, `float`,
/// `double`, `string`, `data`, `date`, `uuid`, `decimal`, `objectId` or `anyValue` (for `any`, which is never
/// optional: null is one of its values), with conversions for narrow integers and enumerations.
enum AccessorCall {
    /// Reads a scalar (optional or not) from `column` through `accessor`.
    ///
    /// Narrow integers clamp rather than trap, and an unknown enumeration raw value reads as `fallback`: a file
    /// holding a value the code does not expect must never crash the app.
    static func read(
        _ type: PropertyType, from accessor: String, at column: Int, enumName: String?, fallback: String
    ) -> String {
        let method = methodName(type.unwrapped)
        let call = type.isOptional
            ? "\(accessor).optional\(upper(method))(at: \(column))"
            : "\(accessor).\(method)(at: \(column))"
        return converted(call, type, enumName: enumName, fallback: fallback)
    }

    /// Reads a scalar (optional or not) from `column` of the managed object itself, through the object layer's
    /// final `managedInt(at:)` and the rest, which call the object's row without retaining it: what a managed
    /// object's getter calls. Conversions as in ``read(_:from:at:enumName:fallback:)``.
    static func objectRead(_ type: PropertyType, at column: Int, enumName: String?, fallback: String) -> String {
        let method = upper(methodName(type.unwrapped))
        let call = "managed\(type.isOptional ? "Optional" : "")\(method)(at: \(column))"
        return converted(call, type, enumName: enumName, fallback: fallback)
    }

    /// `call`, an accessor method's read of `type`'s storage kind, converted to `type`.
    private static func converted(_ call: String, _ type: PropertyType, enumName: String?, fallback: String) -> String {
        let isOptional = type.isOptional
        let base = type.unwrapped
        switch base {
        case .integer(let width) where width != .int64:
            let conversion = width == .int ? "Int($0)" : "\(SwiftType.integerName(width))(clamping: $0)"
            if isOptional { return "\(call).map { \(conversion) }" }
            return conversion.replacingOccurrences(of: "$0", with: call)
        case .enumeration:
            let enumType = enumName ?? "String"
            if isOptional { return "\(call).flatMap { \(enumType)(rawValue: $0) }" }
            return "\(enumType)(rawValue: \(call)) ?? \(fallback)"
        default:
            return call
        }
    }

    /// Writes `newValue` (optional or not) to `column` through `accessor`.
    static func write(_ type: PropertyType, to accessor: String, at column: Int) -> String {
        let isOptional = type.isOptional
        let base = type.unwrapped
        let setter = "\(accessor).set\(isOptional ? "Optional" : "")\(upper(methodName(base)))"
        let value: String
        switch base {
        case .integer(let width) where width != .int64:
            value = isOptional ? "newValue.map { Int64($0) }" : "Int64(newValue)"
        case .enumeration:
            value = isOptional ? "newValue?.rawValue" : "newValue.rawValue"
        default:
            value = "newValue"
        }
        return "\(setter)(\(value), at: \(column))"
    }

    /// The getter's name for a non-optional scalar type.
    private static func methodName(_ type: PropertyType) -> String {
        switch type {
        case .bool: return "bool"
        case .integer: return "int"
        case .float: return "float"
        case .double: return "double"
        case .string, .enumeration: return "string"
        case .data: return "data"
        case .date: return "date"
        case .uuid: return "uuid"
        case .decimal: return "decimal"
        case .objectId: return "objectId"
        case .any: return "anyValue"
        // Links, lists, sets, maps and linking objects have their own accessor methods; callers never come here with them.
        case .link, .optional, .list, .linkingObjects, .set, .map: return "string"
        }
    }

    /// `int` → `Int`, `uuid` → `UUID`, `objectId` → `ObjectId`.
    private static func upper(_ method: String) -> String {
        method == "uuid" ? "UUID" : SwiftIdentifier.upperCamel(method)
    }
}

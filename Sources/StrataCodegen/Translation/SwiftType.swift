import StrataSchema

/// The Swift spelling of schema types and of their default values.
enum SwiftType {
    /// The Swift type of `type`: `Int32`, `String?`, `List<Loan>`, `Book?`, `LinkingObjects<Member>`.
    ///
    /// - Parameters:
    ///   - enumName: The nested enum type of an enumeration property.
    ///   - modelPrefix: Qualifies model names (`Library.V2.`) for the views of older versions.
    static func name(of type: PropertyType, enumName: String?, modelPrefix: String = "") -> String {
        switch type {
        case .bool: return "Bool"
        case .integer(let width): return integerName(width)
        case .float: return "Float"
        case .double: return "Double"
        case .string: return "String"
        case .date: return "Date"
        case .data: return "Data"
        case .uuid: return "UUID"
        case .enumeration: return enumName ?? "String"
        case .link(let model): return modelPrefix + SwiftIdentifier.escaped(model) + "?"
        case .optional(.link(let model)): return modelPrefix + SwiftIdentifier.escaped(model) + "?"
        case .optional(let wrapped): return name(of: wrapped, enumName: enumName, modelPrefix: modelPrefix) + "?"
        case .list(let element):
            return "List<\(elementName(of: element, enumName: enumName, modelPrefix: modelPrefix))>"
        case .linkingObjects(let model, _): return "LinkingObjects<\(modelPrefix)\(SwiftIdentifier.escaped(model))>"
        case .decimal: return "Decimal"
        case .objectId: return "ObjectId"
        case .any: return "AnyValue"
        case .set(let element):
            return "MutableSet<\(elementName(of: element, enumName: enumName, modelPrefix: modelPrefix))>"
        case .map(let element):
            return "Map<String, \(name(of: element, enumName: enumName, modelPrefix: modelPrefix))>"
        }
    }

    /// The Swift type of a collection's element as its initializer parameter and older-version views take it:
    /// a list's or set's element (`Loan`, `String`), a map's value (`Loan?`, `Int`).
    static func collectionElementName(of type: PropertyType, enumName: String?, modelPrefix: String = "") -> String? {
        switch type {
        case .list(let element), .set(let element):
            return elementName(of: element, enumName: enumName, modelPrefix: modelPrefix)
        case .map(let element):
            return name(of: element, enumName: enumName, modelPrefix: modelPrefix)
        default:
            return nil
        }
    }

    /// The Swift type of a list's elements: a model itself for a list of links (`Loan`, not `Loan?`).
    static func elementName(of element: PropertyType, enumName: String?, modelPrefix: String = "") -> String {
        switch element {
        case .link(let model), .optional(.link(let model)): return modelPrefix + SwiftIdentifier.escaped(model)
        default: return name(of: element, enumName: enumName, modelPrefix: modelPrefix)
        }
    }

    /// `Int`, `Int64`, `Int32`, `Int16` or `Int8`.
    static func integerName(_ width: IntegerWidth) -> String {
        switch width {
        case .int: return "Int"
        case .int64: return "Int64"
        case .int32: return "Int32"
        case .int16: return "Int16"
        case .int8: return "Int8"
        }
    }

    /// The property's `default:` as a Swift expression, or its type's zero value (docs/SCHEMA.md: `0`, `""`, `false`,
    /// empty data, `Date(timeIntervalSince1970: 0)`, the first enum case, `nil` for optionals).
    ///
    /// `auto` is a random UUID or the current date, evaluated when the object is created; the `auto` integer
    /// primary key is handled by the caller (it is assigned when the object is added).
    static func defaultExpression(for property: PropertyDefinition, enumCases: [String]?) -> String {
        let type = property.type
        switch property.defaultValue {
        case nil, .null?:
            return zeroValue(of: type, enumCases: enumCases)
        case .auto?:
            switch type.unwrapped {
            case .uuid: return "UUID()"
            case .objectId: return "ObjectId.generate()"
            case .date: return "Date()"
            default: return zeroValue(of: type, enumCases: enumCases)
            }
        case .bool(let value)?:
            return value ? "true" : "false"
        case .integer(let value)?:
            return "\(value)"
        case .double(let value)?:
            return SwiftLiteral.floatingPoint(value)
        case .string(let text)?:
            switch type.unwrapped {
            case .enumeration: return "." + SwiftIdentifier.escaped(text)
            case .date: return SwiftLiteral.date(text) ?? zeroValue(of: type, enumCases: enumCases)
            case .uuid: return SwiftLiteral.uuid(text) ?? zeroValue(of: type, enumCases: enumCases)
            case .decimal: return "Decimal(string: \(SwiftLiteral.string(text)))!"
            case .objectId: return "try! ObjectId(string: \(SwiftLiteral.string(text)))"
            default: return SwiftLiteral.string(text)
            }
        }
    }

    /// The zero value of `type`.
    static func zeroValue(of type: PropertyType, enumCases: [String]?) -> String {
        switch type {
        case .optional, .link: return "nil"
        case .bool: return "false"
        case .integer, .float, .double: return "0"
        case .string: return "\"\""
        case .data: return "Data()"
        case .date: return "Date(timeIntervalSince1970: 0)"
        case .uuid: return SwiftLiteral.zeroUUID
        case .enumeration(let cases): return "." + SwiftIdentifier.escaped((enumCases ?? cases).first ?? "")
        case .list: return "List()"
        case .set: return "MutableSet()"
        case .map: return "Map()"
        case .linkingObjects: return ""
        case .decimal: return "0"
        case .objectId: return "ObjectId.zero"
        case .any: return ".none"
        }
    }
}

import Foundation
import StrataSchema

/// How values of one schema type live in a PostgreSQL column, and how a JSON value from the wire becomes a
/// parameter for it.
///
/// Every value is bound as text and converted by `cast(_:)` (`$1::bigint`, `decode((r.v->>1), 'base64')`),
/// so one code path serves every type. The per-type logic of the server is here and nowhere else.
struct ColumnType: Sendable, Hashable {
    /// The value domains the server knows.
    enum Base: Sendable, Hashable {
        case bool
        case integer(IntegerWidth)
        case float
        case double
        case string
        case enumeration([String])
        case date
        case data
        case uuid
        case decimal
        case objectId
        case any
        /// Embedded objects held by the owner's property, as one nested value (`EmbeddedShape`).
        case embedded(EmbeddedShape)
    }

    /// The domain.
    var base: Base
    /// Whether null is allowed (optional types and `any`).
    var isNullable: Bool

    /// The column type as PostgreSQL's `information_schema.columns.data_type` spells it.
    var sqlType: String {
        switch base {
        case .bool: return "boolean"
        case .integer(let width):
            switch width {
            case .int, .int64: return "bigint"
            case .int32: return "integer"
            case .int16, .int8: return "smallint"
            }
        case .float: return "real"
        case .double: return "double precision"
        case .string, .enumeration, .objectId: return "text"
        case .date: return "timestamp with time zone"
        case .data: return "bytea"
        case .uuid: return "uuid"
        case .decimal: return "numeric"
        case .any: return "jsonb"
        case .embedded: return "jsonb"
        }
    }

    /// The SQL expression that turns the text expression `text` (a parameter, or a column of `ParameterRows`)
    /// into a value of the column.
    func cast(_ text: String) -> String {
        switch base {
        case .date: return "to_timestamp(\(text)::double precision)"
        case .data: return "decode(\(text), 'base64')"
        default: return "\(text)::\(sqlType)"
        }
    }

    /// The SQL expression that reads column `column` back as the text `parameter` would produce for it.
    func textExpression(_ column: String) -> String {
        switch base {
        case .date: return "extract(epoch from \(column))::text"
        case .data: return "encode(\(column), 'base64')"
        default: return "\(column)::text"
        }
    }

    /// The parameter text for `value`, or `nil` for null.
    /// - Parameter context: Names the value in the error (`Note.title`).
    /// - Throws: `SyncError.badRequest` when the value does not fit the type.
    func parameter(_ value: SyncValue, context: String) throws -> String? {
        if value == .null {
            guard isNullable else { throw SyncError(.badRequest, "\(context) is not optional; null was given") }
            return nil
        }
        switch (base, value) {
        case (.bool, .bool(let flag)):
            return flag ? "true" : "false"
        case (.integer(let width), .integer(let number)):
            let bits = Int64(width.bits)
            let limit: Int64 = bits == 64 ? Int64.max : (Int64(1) << (bits - 1)) - 1
            guard bits == 64 || (number >= -limit - 1 && number <= limit) else {
                throw SyncError(.badRequest, "\(context) is \(width.rawValue); \(number) is out of its range")
            }
            return String(number)
        case (.float, .integer(let number)), (.double, .integer(let number)):
            return String(Double(number))
        case (.float, .number(let number)), (.double, .number(let number)):
            return String(number)
        case (.string, .string(let text)):
            return text
        case (.enumeration(let cases), .string(let text)):
            guard cases.contains(text) else {
                throw SyncError(.badRequest, "\(context) is one of \(cases.joined(separator: ", ")); got '\(text)'")
            }
            return text
        case (.date, .integer(let seconds)):
            return String(seconds)
        case (.date, .number(let seconds)):
            return String(seconds)
        case (.data, .string(let base64)):
            guard Data(base64Encoded: base64) != nil else {
                throw SyncError(.badRequest, "\(context) is data; the string is not base64")
            }
            return base64
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else {
                throw SyncError(.badRequest, "\(context) is a uuid; '\(text)' is not one")
            }
            return uuid.uuidString.lowercased()
        case (.decimal, .string(let text)):
            guard Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil,
                text.allSatisfy({ "0123456789+-.eE".contains($0) })
            else { throw SyncError(.badRequest, "\(context) is a decimal; '\(text)' is not a decimal number") }
            return text
        case (.decimal, .integer(let number)):
            return String(number)
        case (.objectId, .string(let text)):
            guard text.count == 24, text.allSatisfy(\.isHexDigit) else {
                throw SyncError(.badRequest, "\(context) is an objectId; '\(text)' is not 24 hex digits")
            }
            return text.lowercased()
        case (.any, _):
            return value.canonicalText
        case (.embedded(let shape), _):
            try shape.check(value, context: context)
            return value.canonicalText
        default:
            throw SyncError(.badRequest, "\(context) is \(typeName); \(value.kindName) was given")
        }
    }

    /// The type's name for error messages.
    var typeName: String {
        switch base {
        case .bool: return "bool"
        case .integer(let width): return width.rawValue
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .enumeration: return "an enum (string)"
        case .date: return "date (seconds since 1970)"
        case .data: return "data (base64)"
        case .uuid: return "uuid"
        case .decimal: return "decimal (string)"
        case .objectId: return "objectId (24 hex digits)"
        case .any: return "any"
        case .embedded(let shape): return "embedded \(shape.model)"
        }
    }

    /// The column type of a primitive schema type, or of a link given the linked model's key type.
    /// - Parameter keyType: The key column type of a model, by name (for links).
    /// - Returns: `nil` for collections and linking objects, which have no column.
    static func forProperty(_ type: PropertyType, keyType: (String) -> ColumnType?) -> ColumnType? {
        switch type {
        case .optional(let wrapped):
            guard var column = forProperty(wrapped, keyType: keyType) else { return nil }
            column.isNullable = true
            return column
        case .link(let model):
            guard var column = keyType(model) else { return nil }
            column.isNullable = true
            return column
        case .bool: return ColumnType(base: .bool, isNullable: false)
        case .integer(let width): return ColumnType(base: .integer(width), isNullable: false)
        case .float: return ColumnType(base: .float, isNullable: false)
        case .double: return ColumnType(base: .double, isNullable: false)
        case .string: return ColumnType(base: .string, isNullable: false)
        case .date: return ColumnType(base: .date, isNullable: false)
        case .data: return ColumnType(base: .data, isNullable: false)
        case .uuid: return ColumnType(base: .uuid, isNullable: false)
        case .enumeration(let cases): return ColumnType(base: .enumeration(cases), isNullable: false)
        case .decimal: return ColumnType(base: .decimal, isNullable: false)
        case .objectId: return ColumnType(base: .objectId, isNullable: false)
        case .any: return ColumnType(base: .any, isNullable: true)
        case .list, .set, .map, .linkingObjects: return nil
        }
    }
}

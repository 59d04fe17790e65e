import StrataSchema

/// Checks a property's `default:` against its type and normalizes it, so that code generation sees one
/// spelling per value: integers for floating-point properties become `.double`, dates become full ISO 8601
/// (`2024-01-31T00:00:00Z`), UUIDs upper-case, decimals as text (`"1.5"`), ObjectIds lower-case.
struct DefaultValueCheck {
    let property: PropertyDefinition
    let model: ModelDefinition
    let sourceMap: SourceMap
    private(set) var diagnostics: [Diagnostic] = []

    /// Prepares to check the default of `property` in `model`.
    init(property: PropertyDefinition, model: ModelDefinition, sourceMap: SourceMap) {
        self.property = property
        self.model = model
        self.sourceMap = sourceMap
    }

    private var qualified: String { "'\(model.name).\(property.name)'" }
    private var location: SourceLocation {
        sourceMap[.propertyValue(model: model.name, property: property.name, field: "default")]
    }

    /// The value as generated code should use it; reports (and returns unchanged) a value of the wrong type.
    mutating func normalized(_ value: DefaultValue) -> DefaultValue {
        let type = property.type
        switch type {
        case .list:
            return refuse("a list starts empty and has no default: remove 'default'")
        case .set, .map:
            return refuse("a \(type.collectionNoun) starts empty and has no default: remove 'default'")
        case .linkingObjects:
            return refuse("linking objects are computed by the store and have no default: remove 'default'")
        case .optional(.link), .link:
            if value == .null { return value }
            return refuse("a link starts as nil and has no other default: remove 'default'")
        case .any:
            if value == .null { return value }
            return refuse("an any property starts as null and has no other default: remove 'default'")
        default:
            break
        }
        if value == .null {
            if type.isOptional { return value }
            return refuse("the property is not optional, so its default cannot be null: remove 'default' or "
                + "write '\(type.schemaSpelling)?'")
        }
        return normalized(value, for: type.unwrapped)
    }

    private mutating func normalized(_ value: DefaultValue, for type: PropertyType) -> DefaultValue {
        switch (type, value) {
        case (.bool, .bool), (.string, .string):
            return value
        case (.integer(let width), .integer(let number)):
            let bits = Int64(width.bits)
            if bits < 64 {
                let limit = Int64(1) << (bits - 1)
                guard number >= -limit, number < limit else {
                    return refuse("\(number) does not fit in '\(width.rawValue)' (\(-limit) to \(limit - 1))")
                }
            }
            return value
        case (.integer, .auto):
            guard model.primaryKey == property.name, !property.type.isOptional else {
                return refuse("'auto' for an integer means 'the next integer' and applies only to the model's int "
                    + "primary key: remove 'default' or make '\(property.name)' the primary key")
            }
            return value
        case (.float, .integer(let number)), (.double, .integer(let number)):
            return checkedFloatingPoint(Double(number), for: type)
        case (.float, .double(let number)), (.double, .double(let number)):
            return checkedFloatingPoint(number, for: type)
        case (.date, .auto), (.uuid, .auto), (.objectId, .auto):
            return value
        case (.decimal, .integer(let number)):
            return .string("\(number)")
        case (.decimal, .double(let number)):
            guard number.isFinite else { return refuse("\(number) is not a decimal number: write a finite number") }
            return .string(DecimalText.normalized("\(number)") ?? "\(number)")
        case (.decimal, .string(let text)):
            guard let decimal = DecimalText.normalized(text) else {
                return refuse("'\(text)' is not a decimal number: write it like 0, -12 or \"10.25\" (quoted to keep "
                    + "every digit)")
            }
            return .string(decimal)
        case (.objectId, .string(let text)):
            guard let id = ObjectIdText.normalized(text) else {
                return refuse("'\(text)' is not an ObjectId: write 24 hexadecimal digits, such as "
                    + "507f1f77bcf86cd799439011, or 'auto' for a new one")
            }
            return .string(id)
        case (.date, .string(let text)):
            guard let iso = ISO8601Text.normalized(text) else {
                return refuse("'\(text)' is not a date: write it in ISO 8601, such as 2024-01-31 or "
                    + "2024-01-31T12:00:00Z, or 'auto' for the current date")
            }
            return .string(iso)
        case (.uuid, .string(let text)):
            guard let uuid = UUIDText.normalized(text) else {
                return refuse("'\(text)' is not a UUID: write it like E621E1F8-C36C-495A-93FC-0C247A3E6E5F, or "
                    + "'auto' for a random one")
            }
            return .string(uuid)
        case (.data, .string(let text)):
            guard Base64Text.isValid(text) else {
                return refuse("a data default is base64 text (\"\" for empty data), and '\(text)' is not base64")
            }
            return value
        case (.enumeration(let cases), .string(let name)):
            guard cases.contains(name) else {
                return refuse("'\(name)' is not a case of the enum (\(cases.joined(separator: ", ")))"
                    + Suggestion.didYouMean(name, among: cases))
            }
            return value
        case (.enumeration(let cases), _):
            return refuse("an enum default is one of its cases (\(cases.joined(separator: ", ")))")
        case (_, .auto):
            return refuse("'auto' means a random UUID, a new ObjectId, the current date or the next integer primary "
                + "key, and means nothing for '\(type.readableName)'"
                + (type == .string ? ": write \"auto\" in quotes if you mean the text" : ": remove 'default'"))
        case (.string, _):
            return refuse("the property is a string, but the default is \(describe(value)): write it in quotes, "
                + "such as \"\(literal(value))\"")
        default:
            return refuse("the property is '\(type.readableName)', but the default is \(describe(value))")
        }
    }

    private mutating func checkedFloatingPoint(_ number: Double, for type: PropertyType) -> DefaultValue {
        if type == .float, number.isFinite, abs(number) > Double(Float.greatestFiniteMagnitude) {
            return refuse("\(number) is too large for a 'float': use 'double'")
        }
        return .double(number)
    }

    private func describe(_ value: DefaultValue) -> String {
        switch value {
        case .bool(let flag): return "the boolean \(flag)"
        case .integer(let number): return "the integer \(number)"
        case .double(let number): return "the number \(number)"
        case .string(let text): return "the text '\(text)'"
        case .auto: return "'auto'"
        case .null: return "null"
        }
    }

    private func literal(_ value: DefaultValue) -> String {
        switch value {
        case .bool(let flag): return "\(flag)"
        case .integer(let number): return "\(number)"
        case .double(let number): return "\(number)"
        case .string(let text): return text
        case .auto: return "auto"
        case .null: return ""
        }
    }

    @discardableResult
    private mutating func refuse(_ reason: String) -> DefaultValue {
        diagnostics.append(.error("default of property \(qualified) is wrong: \(reason)", at: location))
        return property.defaultValue ?? .null
    }
}

/// How a type is written in a schema file, for fingerprints and for the schema compiler's messages.
extension PropertyType {
    /// The type as a schema file writes it (`int?`, `[string]`, `Book?`, `{ enum: [a, b] }`): the inverse of the
    /// schema compiler's type parser.
    ///
    /// Fingerprints hash this text for every type but enums, links and linking objects, so the spelling of a
    /// primitive must never change (it is recorded, through the fingerprint, in database files).
    package var schemaSpelling: String {
        switch self {
        case .bool: return "bool"
        case .integer(let width): return width.rawValue
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .uuid: return "uuid"
        case .enumeration(let cases): return "{ enum: [\(cases.joined(separator: ", "))] }"
        case .link(let model): return model
        case .optional(let wrapped): return wrapped.schemaSpelling + "?"
        case .list(let element): return "[\(element.schemaSpelling)]"
        case .linkingObjects(let model, let property): return "{ linkingObjects: \(model).\(property) }"
        case .set(let element): return "set<\(element.schemaSpelling)>"
        case .map(let element): return "map<\(element.schemaSpelling)>"
        case .decimal: return "decimal"
        case .objectId: return "objectId"
        case .any: return "any"
        }
    }
}

import StrataSchema

/// What each type allows, from the types table in docs/SCHEMA.md.
extension PropertyType {
    /// Whether a property of this type can carry `indexed: true` or appear in `indexes`.
    public var isIndexable: Bool {
        switch self {
        case .bool, .integer, .string, .date, .uuid, .enumeration: return true
        case .optional(let wrapped): return !wrapped.isLink && wrapped.isIndexable
        case .float, .double, .data, .link, .list, .linkingObjects, .set, .map: return false
        case .decimal, .objectId, .any: return true
        }
    }

    /// Whether this is a set whose elements an index can hold, one entry per element (`indexed: true` on a
    /// `set<T>` of bool, int, string, date, uuid, decimal, objectId or enum values, optional or not): a Strata
    /// extension over Realm. Such a set is indexed alone, never in `indexes` or with `unique`.
    public var isIndexableSet: Bool {
        guard case .set(let element) = self else { return false }
        switch element.unwrapped {
        case .bool, .integer, .string, .date, .uuid, .enumeration, .decimal, .objectId: return true
        default: return false
        }
    }

    /// Whether a property of this type can be a model's primary key (`int*`, `string`, `uuid` or `objectId`, not
    /// optional).
    public var canBePrimaryKey: Bool {
        switch self {
        case .integer, .string, .uuid, .objectId: return true
        default: return false
        }
    }

    /// Whether this is a link to a model (`.link`), without optional or list wrapping.
    var isLink: Bool {
        if case .link = self { return true }
        return false
    }

    /// Whether this is `{ linkingObjects: ... }`.
    var isLinkingObjects: Bool {
        if case .linkingObjects = self { return true }
        return false
    }

    /// `list`, `set` or `map` for a collection, as messages name its kind; `value` for any other type.
    var collectionNoun: String {
        switch self {
        case .list: return "list"
        case .set: return "set"
        case .map: return "map"
        default: return "value"
        }
    }

    /// The type as messages name it (`double`, `[string]`, `enum`).
    var readableName: String {
        switch self {
        case .enumeration: return "enum"
        case .linkingObjects: return "linkingObjects"
        default: return schemaSpelling
        }
    }
}

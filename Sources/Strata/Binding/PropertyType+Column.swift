import StrataSchema
import StrataStorage

/// How a schema property's type maps to its store column (docs/ARCHITECTURE.md, "Glossary").
extension PropertyType {
    /// The column that stores a property of this type; `nil` for linking objects (never stored) and for what no
    /// column can hold (a list of lists).
    var columnType: ColumnType? {
        switch self {
        case .linkingObjects:
            return nil
        case .optional(let wrapped):
            return wrapped.columnType
        case .list(let element):
            guard case .value(let kind) = element.columnType else { return nil }
            return .list(kind)
        case .set(let element):
            guard case .value(let kind) = element.columnType else { return nil }
            return .set(kind)
        case .map(let element):
            guard case .value(let kind) = element.columnType else { return nil }
            return .map(kind)
        default:
            return valueKind.map(ColumnType.value)
        }
    }

    /// Whether the column holds nil: optional values, to-one links and mixed values.
    var isNullableColumn: Bool {
        switch self {
        case .optional, .link, .any: return true
        default: return false
        }
    }

    /// For a list, set or map, whether its elements may be nil.
    var hasNullableElements: Bool {
        collectionElement?.isNullableColumn ?? false
    }

    /// The value kind of a primitive or to-one link type (the element kind is the list's business).
    var valueKind: ValueKind? {
        switch self {
        case .bool: return .bool
        case .integer: return .int
        case .float: return .float
        case .double: return .double
        case .string, .enumeration: return .string
        case .date: return .timestamp
        case .data: return .binary
        case .uuid: return .uuid
        case .link: return .link
        case .optional(let wrapped): return wrapped.valueKind
        case .list, .linkingObjects, .set, .map: return nil
        case .decimal: return .decimal
        case .objectId: return .objectId
        case .any: return .mixed
        }
    }

    /// Whether a property changing from `self` to `other` needs another column: its type, its nullability, its
    /// elements' nullability or its target differs.
    func storesDifferently(from other: PropertyType) -> Bool {
        columnType != other.columnType || isNullableColumn != other.isNullableColumn
            || hasNullableElements != other.hasNullableElements || linkedModel != other.linkedModel
    }
}

extension TableShape {
    /// The store column of each persisted property of `model` (version `version` of its schema), in column order.
    ///
    /// - Throws: `StrataError.schemaMismatch` naming the property whose column is missing or of another type
    ///   (a file not written by this schema's history).
    func columnKeys(for model: ModelDefinition, version: Int, path: String) throws -> [ColumnKey] {
        try model.persistedProperties.map { property in
            guard let column = column(named: property.name), let expected = property.type.columnType,
                column.type == expected
            else {
                throw StrataError.schemaMismatch(
                    path: path,
                    detail: "version \(version) stores \(model.name).\(property.name) as "
                        + "\(property.type.schemaSpelling), but the file's column is missing or of another type")
            }
            return column.key
        }
    }
}

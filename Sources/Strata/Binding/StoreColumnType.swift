import StrataSchema
import StrataStorage

/// How a schema property maps to a store column.
struct StoreColumnType: Equatable {
    /// The column's type.
    var type: ColumnType
    /// Whether the column holds nil (links always do).
    var nullable: Bool
    /// For a list, whether its elements may be nil.
    var elementsNullable: Bool
    /// For a link or a list of links, the target model's name.
    var target: String?

    /// The column for a persisted property's type; `nil` for linking objects (never stored).
    init?(_ type: PropertyType) {
        switch type {
        case .linkingObjects:
            return nil
        case .optional(let wrapped):
            guard let inner = StoreColumnType(wrapped) else { return nil }
            self = inner
            nullable = true
        case .list(let element):
            guard let inner = StoreColumnType(element), case .value(let kind) = inner.type else { return nil }
            self.type = .list(kind)
            nullable = false
            elementsNullable = inner.nullable
            target = inner.target
        case .link(let model):
            self.type = .value(.link)
            nullable = true
            elementsNullable = false
            target = model
        default:
            guard let kind = Self.kind(of: type) else { return nil }
            self.type = .value(kind)
            nullable = false
            elementsNullable = false
            target = nil
        }
    }

    /// The value kind of a primitive property type.
    static func kind(of type: PropertyType) -> ValueKind? {
        switch type {
        case .bool: return .bool
        case .integer: return .int
        case .float: return .float
        case .double: return .double
        case .string, .enumeration: return .string
        case .date: return .timestamp
        case .data: return .binary
        case .uuid: return .uuid
        case .link: return .link
        case .optional(let wrapped): return kind(of: wrapped)
        case .list, .linkingObjects: return nil
        }
    }
}

extension Table {
    /// The store column of each persisted property of `model` (version `version` of its schema), in column order.
    ///
    /// - Throws: `StrataError.schemaMismatch` naming the property whose column is missing or of another type
    ///   (a file not written by this schema's history).
    func columnKeys(for model: ModelDefinition, version: Int, path: String) throws -> [ColumnKey] {
        try model.persistedProperties.map { property in
            guard let column = column(named: property.name), let expected = StoreColumnType(property.type),
                column.type == expected.type
            else {
                throw StrataError.schemaMismatch(
                    path: path,
                    detail: "version \(version) stores \(model.name).\(property.name) as \(property.type.spelling), "
                        + "but the file's column is missing or of another type")
            }
            return column.key
        }
    }
}

import StrataSchema
import StrataStorage

/// Where one model of one schema version lives in the file: its table and the store column of each persisted
/// property, by the column numbers of that version's ``ModelDescription`` (the numbers generated model classes
/// and the generated views of older versions use).
///
/// What a database's ``ModelBinding`` and a migration's ``VersionModel`` share, and all an ``ObjectRow`` needs
/// to name a property in a message. Keys, not names, are kept: table and column keys survive renames, so a
/// layout resolved before a migration step still reads the old values after the step renamed or set aside their
/// columns.
class ModelLayout {
    /// The schema version the layout describes.
    let version: Int
    /// The model as that version declares it (defaults, `auto`, indexes).
    let definition: ModelDefinition
    /// Its persisted properties in column order.
    let description: ModelDescription
    /// The table holding its objects.
    let tableKey: TableKey
    /// The store column of each persisted property: column `i` holds ``ModelDescription/properties```[i]`.
    let columns: [ColumnKey]
    /// For each column, whether it holds mixed values (`any`, alone or in a list, set or map): worked out once, as
    /// adding an object asks for each of its links.
    private let mixedColumns: [Bool]

    /// The layout of `definition` (described as `description`, built from it) in version `version`.
    init(
        version: Int, definition: ModelDefinition, description: ModelDescription? = nil, tableKey: TableKey,
        columns: [ColumnKey]
    ) {
        self.version = version
        self.definition = definition
        self.description = description ?? ModelDescription(definition)
        self.tableKey = tableKey
        self.columns = columns
        mixedColumns = self.description.properties.map {
            switch $0.type {
            case .any, .list(.any), .set(.any), .map(.any): return true
            default: return false
            }
        }
    }

    /// Whether the property in `column` holds mixed values (`any`, alone or in a list, set or map).
    func isMixed(_ column: Int) -> Bool { column >= 0 && column < mixedColumns.count && mixedColumns[column] }

    /// The model's name in its version.
    var name: String { description.name }

    /// The column of the property named `name`, or `nil`.
    func column(named name: String) -> Int? { description.column(named: name) }

    /// The name of the property in column `column`, for messages (`#7` for a column the model does not have).
    func propertyName(_ column: Int) -> String {
        column >= 0 && column < description.properties.count ? description.properties[column].name : "#\(column)"
    }
}

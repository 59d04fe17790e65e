import StrataSchema
import StrataStorage

/// One model as this database stores it: its class, and (from ``ModelLayout``) its description and the table and
/// columns that hold it.
///
/// Built once when a database opens; column `i` of ``columns`` holds ``ModelDescription/properties```[i]`.
final class ModelBinding: ModelLayout {
    /// Position in ``SchemaBinding/models``.
    let index: Int
    /// Whether the model is `embedded: true`: its objects belong to a parent and are never queried on their own.
    let isEmbedded: Bool
    /// The generated class.
    let type: ObjectBase.Type
    /// Column of the primary key, if any.
    let primaryKeyColumn: Int?
    /// For each link or list-of-links property (by column index), the model it points to; set once every
    /// model is bound.
    var linkTargets: [Int: ModelBinding] = [:] {
        didSet { bindValueColumns() }
    }
    /// The properties that are not links nor mixed values (by column index), in column order, and their store
    /// columns: what `add` inserts in one call, before it stores links (which may need their targets added first).
    private(set) var valueProperties: [Int] = []
    private(set) var valueColumns: [ColumnKey] = []
    /// The link, list-of-links and mixed (`any`, alone or in a list) properties (by column index), in column
    /// order: written once the object's row exists, since a mixed value may link to an object to add first.
    private(set) var linkProperties: [Int] = []
    /// Whether the primary key is an `int` with `default: auto` (assigned from the table's sequence); worked out
    /// once, as `add` asks for every object.
    let hasAutoIncrementPrimaryKey: Bool
    /// The array `add` fills with an object's store values, kept between inserts of this model: the table copies
    /// the values into its cluster and keeps no reference to the array, so adding a million objects one by one
    /// reuses one allocation instead of making and freeing a million. It holds the last added object's values
    /// until the next add of the model overwrites them (one row, no more). Only read whole and assigned whole, by the
    /// writing thread, so its accesses need no run-time exclusivity check (which would cost what the reuse saves).
    @exclusivity(unchecked) var spareRow: [StorageValue] = []
    /// The row an unmanaged object writes itself into when `add` inserts it (``ObjectBase/writeValues(into:)``),
    /// kept between inserts of this model as ``spareRow`` is; `nil` while an add holds it (an object being added
    /// may add another of the same model: that one then gets a row of its own). See ``withUnmanagedRow(_:)``.
    @exclusivity(unchecked) var spareUnmanagedRow: UnmanagedRow?

    init(
        index: Int, type: ObjectBase.Type, version: Int, definition: ModelDefinition, tableKey: TableKey,
        columns: [ColumnKey]
    ) {
        self.index = index
        self.type = type
        isEmbedded = definition.isEmbedded
        let description = ModelDescription(definition)
        self.primaryKeyColumn = description.primaryKeyColumn
        hasAutoIncrementPrimaryKey = Self.autoIncrements(description, definition)
        super.init(
            version: version, definition: definition, description: description, tableKey: tableKey, columns: columns)
        bindValueColumns()
    }

    /// Whether a link property points at an embedded model: `add` then inserts new embedded objects with the
    /// object's row (worked out once, as `add` asks for every object).
    private(set) var ownsEmbeddedObjects = false

    private func bindValueColumns() {
        valueProperties = columns.indices.filter { linkTargets[$0] == nil && !isMixed($0) }
        valueColumns = valueProperties.map { columns[$0] }
        linkProperties = columns.indices.filter { linkTargets[$0] != nil || isMixed($0) }
        ownsEmbeddedObjects = linkTargets.values.contains { $0.isEmbedded }
        spareUnmanagedRow = nil
    }

    /// Runs `body` with the model's reusable ``UnmanagedRow``, ready for the next object, and keeps the row for the
    /// next add once `body` returns, having let go of the objects it wrote (``UnmanagedRow/releaseObjects()``).
    ///
    /// The row is moved out of ``spareUnmanagedRow`` and back (`swap`), never copied: a copy held the row's
    /// arrays twice, so letting go of its objects copied the array of links, and each copy cost a retain and a
    /// release of every array the row holds. An add that adds another object of the same model from inside `body`
    /// finds no spare row and makes one of its own.
    @inline(__always)
    func withUnmanagedRow<Result>(_ body: (inout UnmanagedRow) throws -> Result) rethrows -> Result {
        var row: UnmanagedRow? = nil
        swap(&row, &spareUnmanagedRow)
        if row == nil {
            var slots = Array(repeating: 0, count: columns.count)
            for (position, property) in valueProperties.enumerated() { slots[property] = position }
            for (position, property) in linkProperties.enumerated() { slots[property] = -1 - position }
            row = UnmanagedRow(slots: slots, valueCount: valueProperties.count, linkCount: linkProperties.count)
        } else {
            row!.reset()
        }
        defer {
            row!.releaseObjects()
            // A row an inner add kept meanwhile is dropped: one row is kept, no more.
            swap(&row, &spareUnmanagedRow)
        }
        return try body(&row!)
    }

    private static func autoIncrements(_ description: ModelDescription, _ definition: ModelDefinition) -> Bool {
        guard let primaryKey = description.primaryKey, let property = definition.property(named: primaryKey) else {
            return false
        }
        if case .integer = property.type, property.defaultValue == .auto { return true }
        return false
    }

    /// The name of the sequence that numbers `auto` integer primary keys.
    static let primaryKeySequence = "primaryKey"
}

/// Every model of one open database, by position, name and class.
final class SchemaBinding {
    /// The models, in the schema's order (restricted to `Configuration.objectTypes`).
    let models: [ModelBinding]
    private let byName: [String: ModelBinding]
    /// The models by class, for a schema too large to scan (`nil` otherwise: building the dictionary type costs a
    /// run-time conformance lookup on the first open of a process, for nothing when it is never used).
    private let byType: [ObjectIdentifier: ModelBinding]?
    /// The identity of each model's class, by position: scanned without retaining a binding per comparison.
    private let types: [ObjectIdentifier]
    /// The most models ``model(for:)`` scans rather than hashes.
    private static let scannedModelCount = 8

    /// The schema's delete rules (`onDelete:`), which every delete applies.
    let deleteRules: DeleteRules

    init(models: [ModelBinding]) {
        self.models = models
        deleteRules = DeleteRules(models: models.map(\.definition))
        types = models.map { ObjectIdentifier($0.type) }
        byName = Dictionary(uniqueKeysWithValues: models.map { ($0.name, $0) })
        // Models read from a file's stored schema share one class (``StoredSchema``): the first one keeps it.
        byType = models.count > Self.scannedModelCount
            ? Dictionary(models.map { (ObjectIdentifier($0.type), $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    /// The binding of the model named `name`.
    func model(named name: String) -> ModelBinding? { byName[name] }

    /// The binding of the model stored in table `table` (how a mixed value's link finds its model).
    func model(forTable table: TableKey) -> ModelBinding? { models.first { $0.tableKey == table } }

    /// The binding of a generated class.
    ///
    /// A schema of a few models is scanned (comparing class identities is cheaper than hashing one, and `add`
    /// asks for every object); a larger one is looked up by hash.
    func model(for type: ObjectBase.Type) -> ModelBinding? {
        let identity = ObjectIdentifier(type)
        if let byType { return byType[identity] }
        guard let position = types.firstIndex(of: identity) else { return nil }
        return models[position]
    }
}

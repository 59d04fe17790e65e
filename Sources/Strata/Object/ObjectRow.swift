import StrataStorage

/// One object's columns in the store, read and written with the failure reporting of whoever handed the object
/// out: the core that the typed accessors (written once, beside ``ManagedObjectAccessor``), the links and the list
/// store (``RowList``) are written over.
///
/// A database's ``ManagedRow`` and a migration's ``MigrationRow`` differ only here: how they reach the table, and
/// how they report a failure an accessor cannot throw. A database stops the program on a failed read (naming the
/// file, the model and the property) and dooms the write on a failed change; a migration records the first
/// failure in its session, which abandons the migration when the app's code returns, and carries on with the
/// column's zero value meanwhile.
///
/// The typed accessors are this protocol's extension methods, so each row type gets them specialized: a property
/// read of a managed object goes straight to ``ManagedRow``'s own ``read(_:_:)``, with no generic call and no box.
protocol ObjectRow: ManagedObjectAccessor {
    /// The object's key in its table.
    var key: ObjectKey { get }
    /// Where the object's model lives: names the model and its properties in messages.
    var layout: ModelLayout { get }

    /// Reads column `column` with `body`, which gets the model's table and the column's key.
    ///
    /// - Returns: What `body` returns, or `nil` after a failure, reported the row's way.
    func read<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T?
    /// Reads the list in column `column` with `body`, as ``read(_:_:)`` does.
    func readList<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T?
    /// A number that changes whenever a list of this row's may have changed (`nil` when the row cannot tell): a
    /// list keeps its decoded elements while it stays the same, so reading its elements one by one decodes the
    /// list once, not once per element. Read it inside ``readList(_:_:)``'s body, which holds the row's access
    /// (its thread, or a frozen database's lock) for the stamp and the list's values together.
    var listStamp: UInt64? { get }
    /// Writes the value `value` makes to column `column`. A failure, also one `value` throws, is reported the
    /// row's way.
    func write(_ column: Int, _ value: () throws -> StorageValue)
    /// Changes the list in column `column` with `body`, which gets the model's table and the column's key. A
    /// failure is reported the row's way.
    func changeList(_ column: Int, _ body: (Table, ColumnKey) throws -> Void)

    /// The key of `object` for a link from `column` (what a database stores, adding an unmanaged object first;
    /// what a migration allows, one of its own objects of the link's model).
    ///
    /// - Throws: What the row's way of reporting makes of a link it cannot store.
    func linkKey(to object: ObjectBase, column: Int) throws -> ObjectKey
    /// The row of object `key` of the model that column `column` links to; `nil` for a column that is no link.
    func linkedRow(_ column: Int, key: ObjectKey) -> Self?
    /// The generated class of the model that column `column` links to, when the row knows it (a database binds
    /// every model to its class; the models of a migration's older versions have none).
    func linkedClass(_ column: Int) -> ObjectBase.Type?
    /// The stored form of a link from the mixed (`any`) column `column` to `object`: its table and key (what a
    /// database stores, adding an unmanaged object first; what a migration allows, one of its own objects).
    ///
    /// - Throws: What the row's way of reporting makes of a link it cannot store.
    func mixedLink(to object: Object, column: Int) throws -> StorageValue
    /// The object a mixed value links to, as an instance of the class of the table's model; `nil` when the row
    /// knows no class for it (the models of a migration's older versions have none).
    func mixedObject(table: TableKey, key: ObjectKey) -> Object?
    /// The error a value that no column can store is reported with (`detail` says which and where).
    func unstorable(_ detail: String) -> Error
    /// Reports that column `column` holds a value of another kind than the code reads (a damaged file);
    /// `detail` says which.
    func reportMismatch(_ detail: String, in column: Int)
}

extension ObjectRow {
    /// What messages call column `column`: `Model.property`.
    func describe(_ column: Int) -> String { "\(layout.name).\(layout.propertyName(column))" }

    /// An instance, of `type` unless the row knows the model's class, over the linked object `key` of
    /// `column`; `nil` for a column that is no link, or when neither class is known.
    func linkedObject(_ column: Int, key: ObjectKey, as type: ObjectBase.Type?) -> ObjectBase? {
        guard let row = linkedRow(column, key: key), let type = linkedClass(column) ?? type else { return nil }
        return type.init(managedBy: row)
    }

    // MARK: Links

    func link<Target: ObjectBase>(at column: Int, as type: Target.Type) -> Target? {
        guard let linked = read(column, { [key] in try $0.link(key, column: $1) }) else { return nil }
        return linkedObject(column, key: linked, as: type) as? Target
    }

    func setLink(_ target: ObjectBase?, at column: Int) {
        write(column) {
            guard let target else { return .null }
            return .link(try linkKey(to: target, column: column))
        }
    }

    func linkedAccessor(at column: Int) -> (any ManagedObjectAccessor)? {
        read(column) { [key] in try $0.link(key, column: $1) }.flatMap { linkedRow(column, key: $0) }
    }

    // MARK: Mixed values

    /// Whether column `column` holds mixed values (`any`, alone or in a list).
    func isMixed(_ column: Int) -> Bool { layout.isMixed(column) }

    /// A stored value of a mixed column as the value it holds (a link as its object, `.none` when the row knows
    /// no class for it).
    func mixedValue(_ stored: StorageValue) -> AnyValue {
        if case .typedLink(let table, let key) = stored { return mixedObject(table: table, key: key).map { .object($0) } ?? .none }
        return AnyValue.fromPersistedValue(ValueConversion.persistedValue(stored)) ?? .none
    }

    /// A mixed value in the store's terms for column `column` (an object as a link to its table and key).
    func mixedStorage(_ value: AnyValue, column: Int) throws -> StorageValue {
        if case .object(let object) = value { return try mixedLink(to: object, column: column) }
        return ValueConversion.storageValue(value.persistedValue) ?? .null
    }

    func anyValue(at column: Int) -> AnyValue {
        read(column) { [key] in try $0.value(key, column: $1) }.map(mixedValue) ?? .none
    }

    func setAnyValue(_ value: AnyValue, at column: Int) { write(column) { try mixedStorage(value, column: column) } }

    // MARK: Lists

    func list<Element: ListElement>(at column: Int, of type: Element.Type) -> List<Element> {
        List(managedBy: RowList<Self, Element>(row: self, column: column))
    }

    func setList<Element: ListElement>(_ elements: List<Element>, at column: Int) {
        let values = Array(elements)  // copied first: `elements` may be this very list
        RowList<Self, Element>(row: self, column: column).replaceAll(with: values)
    }

    func linkedAccessors(at column: Int) -> [any ManagedObjectAccessor] {
        // A list or a set of links: both read as `.list`.
        guard case .list(let values)? = read(column, { [key] in try $0.value(key, column: $1) }) else { return [] }
        return values.compactMap { value in
            guard case .link(let linked) = value else { return nil }
            return linkedRow(column, key: linked)
        }
    }

    // MARK: Sets and maps

    func mutableSet<Element: ListElement>(at column: Int, of type: Element.Type) -> MutableSet<Element> {
        MutableSet(managedBy: RowSet<Self, Element>(row: self, column: column))
    }

    func setMutableSet<Element: ListElement>(_ elements: MutableSet<Element>, at column: Int) {
        let values = Array(elements)  // copied first: `elements` may be this very set
        RowSet<Self, Element>(row: self, column: column).replaceAll(with: values)
    }

    func map<Value: ListElement>(at column: Int, of type: Value.Type) -> Map<String, Value> {
        Map(managedBy: RowMap<Self, Value>(row: self, column: column))
    }

    func setMap<Value: ListElement>(_ entries: Map<String, Value>, at column: Int) {
        let values = Dictionary(entries.orderedEntries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        RowMap<Self, Value>(row: self, column: column).replaceAll(with: values)
    }

    func linkedAccessorMap(at column: Int) -> [String: (any ManagedObjectAccessor)?] {
        guard case .map(let entries)? = read(column, { [key] in try $0.value(key, column: $1) }) else { return [:] }
        return entries.mapValues { value -> (any ManagedObjectAccessor)? in
            guard case .link(let linked) = value else { return nil }
            return linkedRow(column, key: linked)
        }
    }
}

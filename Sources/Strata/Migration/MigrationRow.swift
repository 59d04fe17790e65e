#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// The store reference behind one object of one schema version during a migration: what the generated typed
/// views of old versions (`Library.V2.Member`), the writable views of intermediate versions and the newest model
/// classes read and write while a custom step runs.
///
/// It reads and writes the migration's write transaction through the model's ``ModelLayout``. Accessors cannot
/// throw, so a failure (a write to an old view, a damaged value) is recorded in the session and thrown when the
/// app's code returns: the whole migration is then abandoned.
final class MigrationRow: ManagedObjectAccessor {
    let session: MigrationSession
    let layout: ModelLayout
    let key: ObjectKey
    /// Whether this is the new object of a step (old objects are read-only).
    let isWritable: Bool
    /// Every model of the layout's version, to resolve linking objects.
    let versionModels: [String: ModelLayout]

    init(session: MigrationSession, layout: ModelLayout, key: ObjectKey, isWritable: Bool,
         versionModels: [String: ModelLayout]) {
        self.session = session
        self.layout = layout
        self.key = key
        self.isWritable = isWritable
        self.versionModels = versionModels
    }

    private var what: String { "\(layout.name) (version \(layout.version))" }

    /// Reads column `column`, recording a failure and returning `fallback` instead of throwing.
    func read<T>(_ column: Int, fallback: T, _ body: (Table, ColumnKey) throws -> T) -> T {
        guard column >= 0, column < layout.columns.count else {
            session.record(session.failure("\(what) has no column \(column)"))
            return fallback
        }
        do {
            try session.writeBatch(ifItHolds: key, column: layout.columns[column], of: layout.tableKey)
            return try body(try session.table(layout.tableKey, for: what), layout.columns[column])
        } catch {
            session.record(error)
            return fallback
        }
    }

    /// Writes `value` to column `column`, refusing writes to the old object of a step.
    func write(_ column: Int, _ value: StorageValue) {
        guard isWritable else {
            session.record(session.failure(
                "the migration code wrote \(layout.propertyName(column)) of an old \(what): old objects are "
                    + "read-only; write to the new object instead"))
            return
        }
        read(column, fallback: ()) { table, columnKey in
            try session.write(value, key: key, column: columnKey, of: table)
        }
    }

    /// A row for the object `target` of the model linked from `column`.
    private func row(linkedFrom column: Int, key target: ObjectKey) -> MigrationRow? {
        guard let layout = layout.linkTargets[column] else { return nil }
        return MigrationRow(session: session, layout: layout, key: target, isWritable: isWritable,
                            versionModels: versionModels)
    }

    // MARK: Primitive columns

    func int(at column: Int) -> Int64 { read(column, fallback: 0) { try $0.int(key, column: $1) ?? 0 } }
    func setInt(_ value: Int64, at column: Int) { write(column, .int(value)) }
    func optionalInt(at column: Int) -> Int64? { read(column, fallback: nil) { try $0.int(key, column: $1) } }
    func setOptionalInt(_ value: Int64?, at column: Int) { write(column, value.map { .int($0) } ?? .null) }

    func bool(at column: Int) -> Bool { read(column, fallback: false) { try $0.bool(key, column: $1) ?? false } }
    func setBool(_ value: Bool, at column: Int) { write(column, .bool(value)) }
    func optionalBool(at column: Int) -> Bool? { read(column, fallback: nil) { try $0.bool(key, column: $1) } }
    func setOptionalBool(_ value: Bool?, at column: Int) { write(column, value.map { .bool($0) } ?? .null) }

    func float(at column: Int) -> Float { read(column, fallback: 0) { try $0.float(key, column: $1) ?? 0 } }
    func setFloat(_ value: Float, at column: Int) { write(column, .float(value)) }
    func optionalFloat(at column: Int) -> Float? { read(column, fallback: nil) { try $0.float(key, column: $1) } }
    func setOptionalFloat(_ value: Float?, at column: Int) { write(column, value.map { .float($0) } ?? .null) }

    func double(at column: Int) -> Double { read(column, fallback: 0) { try $0.double(key, column: $1) ?? 0 } }
    func setDouble(_ value: Double, at column: Int) { write(column, .double(value)) }
    func optionalDouble(at column: Int) -> Double? { read(column, fallback: nil) { try $0.double(key, column: $1) } }
    func setOptionalDouble(_ value: Double?, at column: Int) { write(column, value.map { .double($0) } ?? .null) }

    func string(at column: Int) -> String { read(column, fallback: "") { try $0.string(key, column: $1) ?? "" } }
    func setString(_ value: String, at column: Int) { write(column, .string(value)) }
    func optionalString(at column: Int) -> String? { read(column, fallback: nil) { try $0.string(key, column: $1) } }
    func setOptionalString(_ value: String?, at column: Int) { write(column, value.map { .string($0) } ?? .null) }

    func data(at column: Int) -> Data {
        read(column, fallback: Data()) { Data(try $0.binary(key, column: $1) ?? []) }
    }
    func setData(_ value: Data, at column: Int) { write(column, .binary(Array(value))) }
    func optionalData(at column: Int) -> Data? {
        read(column, fallback: nil) { try $0.binary(key, column: $1).map { Data($0) } }
    }
    func setOptionalData(_ value: Data?, at column: Int) { write(column, value.map { .binary(Array($0)) } ?? .null) }

    func date(at column: Int) -> Date {
        read(column, fallback: ValueConversion.date(0)) { ValueConversion.date(try $0.timestamp(key, column: $1) ?? 0) }
    }
    func setDate(_ value: Date, at column: Int) { write(column, .timestamp(ValueConversion.timestamp(value))) }
    func optionalDate(at column: Int) -> Date? {
        read(column, fallback: nil) { try $0.timestamp(key, column: $1).map(ValueConversion.date) }
    }
    func setOptionalDate(_ value: Date?, at column: Int) {
        write(column, value.map { .timestamp(ValueConversion.timestamp($0)) } ?? .null)
    }

    func uuid(at column: Int) -> UUID {
        read(column, fallback: ManagedRow.zeroUUID) { try $0.uuid(key, column: $1) ?? ManagedRow.zeroUUID }
    }
    func setUUID(_ value: UUID, at column: Int) { write(column, .uuid(value)) }
    func optionalUUID(at column: Int) -> UUID? { read(column, fallback: nil) { try $0.uuid(key, column: $1) } }
    func setOptionalUUID(_ value: UUID?, at column: Int) { write(column, value.map { .uuid($0) } ?? .null) }

    // MARK: Links

    func link<Target: Object>(at column: Int, as type: Target.Type) -> Target? {
        linkedAccessor(at: column).map { Target(managedBy: $0) }
    }

    func setLink(_ target: Object?, at column: Int) {
        guard let target else { return write(column, .null) }
        guard let linked = linkKey(for: target, column: column) else { return }
        write(column, .link(linked))
    }

    /// The key of `target` for a link from `column`: it must be an object this migration handed out, of the
    /// column's target model (a custom step cannot add objects through a link; `Migration.create` does that).
    func linkKey(for target: Object, column: Int) -> ObjectKey? {
        guard let row = target.managedAccessor as? MigrationRow, row.session === session,
            row.layout.tableKey == layout.linkTargets[column]?.tableKey
        else {
            session.record(session.failure(
                "the migration code linked \(what).\(layout.propertyName(column)) to an object that is not one of "
                    + "this migration's objects of the link's model; link to objects reached through the old or new "
                    + "objects, or create new ones with Migration.create(_:value:)"))
            return nil
        }
        return row.key
    }

    func linkedAccessor(at column: Int) -> (any ManagedObjectAccessor)? {
        let linked: ObjectKey? = read(column, fallback: nil) { try $0.link(key, column: $1) }
        return linked.flatMap { row(linkedFrom: column, key: $0) }
    }

    // MARK: Lists and linking objects

    func list<Element: ListElement>(at column: Int, of type: Element.Type) -> List<Element> {
        List(managedBy: MigrationList<Element>(row: self, column: column))
    }

    func setList<Element: ListElement>(_ elements: List<Element>, at column: Int) {
        let values = Array(elements)  // copied first: `elements` may be this very list
        let list = MigrationList<Element>(row: self, column: column)
        list.removeAll()
        for value in values { list.insert(value, at: list.count) }
    }

    func linkedAccessors(at column: Int) -> [any ManagedObjectAccessor] {
        let values: [StorageValue] = read(column, fallback: []) { try $0.list(key, column: $1) }
        return values.compactMap { value in
            guard case .link(let linked) = value else { return nil }
            return row(linkedFrom: column, key: linked)
        }
    }

    func linkingObjects<Source: Object>(_ type: Source.Type, through property: String) -> LinkingObjects<Source> {
        guard let source = versionModels[type.modelDescription.name],
            let column = source.description.column(named: property)
        else {
            return LinkingObjects(fromType: type, property: property)
        }
        return LinkingObjects(
            property: property,
            managedBy: MigrationLinkingObjects<Source>(target: self, source: source, sourceColumn: column))
    }
}

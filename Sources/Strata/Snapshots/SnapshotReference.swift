#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// The store reference of an object that a snapshot's link made (`Model(snapshot:)`): it names a stored object
/// by its model and key, and has no values of its own. Adding the object that links to it looks the stored object
/// up (``Database/resolve(_:)``); reading or writing its properties before that stops the program with a message
/// that says so, as the object is only a name.
final class SnapshotReference: ObjectRow {
    /// The stored object it names.
    let reference: ObjectReference
    let key = ObjectKey(-1)
    let layout: ModelLayout

    init(_ reference: ObjectReference) {
        self.reference = reference
        let definition = ModelDefinition(
            name: reference.model, properties: [], location: SourceLocation(path: "", line: 0, column: 0))
        layout = ModelLayout(version: 0, definition: definition, tableKey: TableKey(rawValue: 0), columns: [])
    }

    private func misuse(_ column: Int) -> Never {
        preconditionFailure(
            "Strata: this \(reference.model) only names the stored \(reference) (a snapshot's link, made by "
                + "init(snapshot:)); it has no values until the object linking to it is added to a database")
    }

    func read<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? { misuse(column) }
    func readList<T>(_ column: Int, _ body: (Table, ColumnKey) throws -> T?) -> T? { misuse(column) }
    var listStamp: UInt64? { nil }
    func write(_ column: Int, _ value: () throws -> StorageValue) { misuse(column) }
    func changeList(_ column: Int, _ body: (Table, ColumnKey) throws -> Void) { misuse(column) }
    func linkKey(to object: ObjectBase, column: Int) throws -> ObjectKey { misuse(column) }
    func linkedRow(_ column: Int, key: ObjectKey) -> SnapshotReference? { misuse(column) }
    func linkedClass(_ column: Int) -> ObjectBase.Type? { nil }
    func mixedLink(to object: Object, column: Int) throws -> StorageValue { misuse(column) }
    func mixedObject(table: TableKey, key: ObjectKey) -> Object? { nil }
    func unstorable(_ detail: String) -> Error { StrataError.invalidArgument(detail) }
    func reportMismatch(_ detail: String, in column: Int) { misuse(column) }
    func linkingObjects<Source: Object>(_ type: Source.Type, through property: String) -> LinkingObjects<Source> {
        misuse(-1)
    }
}

extension ObjectBase {
    /// An object that names the stored object of this model whose primary key is `key` (or, for a model without
    /// one, whose ``StableObjectKey`` it is): how `init(snapshot:)` turns a snapshot's link back into an object.
    /// Adding the object that links to it resolves it; a key no stored object has fails that write.
    @_spi(StrataGenerated) public static func snapshotReference(_ key: some SnapshotReferenceKey) -> Self {
        Self(managedBy: SnapshotReference(ObjectReference(model: modelDescription.name, key: key.referenceKey)))
    }
}

/// A value a snapshot names a linked object by: a primary key, or a ``StableObjectKey``.
public protocol SnapshotReferenceKey: Hashable, Sendable {
    /// The key as JSON writes it.
    var referenceKey: ObjectReference.Key { get }
}

extension Int: SnapshotReferenceKey {
    /// `.int`
    public var referenceKey: ObjectReference.Key { .int(Int64(self)) }
}
extension Int64: SnapshotReferenceKey {
    /// `.int`
    public var referenceKey: ObjectReference.Key { .int(self) }
}
extension Int32: SnapshotReferenceKey {
    /// `.int`
    public var referenceKey: ObjectReference.Key { .int(Int64(self)) }
}
extension Int16: SnapshotReferenceKey {
    /// `.int`
    public var referenceKey: ObjectReference.Key { .int(Int64(self)) }
}
extension Int8: SnapshotReferenceKey {
    /// `.int`
    public var referenceKey: ObjectReference.Key { .int(Int64(self)) }
}
extension String: SnapshotReferenceKey {
    /// `.string`
    public var referenceKey: ObjectReference.Key { .string(self) }
}
extension UUID: SnapshotReferenceKey {
    /// `.string`, uppercase.
    public var referenceKey: ObjectReference.Key { .string(uuidString) }
}
extension ObjectId: SnapshotReferenceKey {
    /// `.string`, 24 hexadecimal digits.
    public var referenceKey: ObjectReference.Key { .string(stringValue) }
}
extension StableObjectKey: SnapshotReferenceKey {
    /// `.int`
    public var referenceKey: ObjectReference.Key { .int(rawValue) }
}

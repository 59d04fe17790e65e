/// The base class of every model the schema compiler generates: ``Object`` for top-level models,
/// ``EmbeddedObject`` for `embedded: true` ones.
///
/// An object is either *unmanaged* or *managed*:
/// - An unmanaged object (one you create with a model's initializer) is a plain Swift object: its values live
///   in typed stored properties of the generated class, with no boxing and no dictionary.
/// - A managed object belongs to a database: each generated property reads and writes the store directly
///   through the object's `ManagedObjectAccessor`, so nothing is copied when you read one property.
///
/// You never subclass `ObjectBase` (or `Object`, or `EmbeddedObject`) by hand: declare models in a
/// `*.strata.yaml` file and let the build plugin
/// generate the classes.
open class ObjectBase {
    /// The store reference a managed object reads and writes through; `nil` while the object is unmanaged.
    ///
    /// Generated accessors check it on every access. The object layer sets it when it adds the object to a
    /// database (the same instance then becomes managed, as in Realm).
    ///
    /// Not checked for exclusive access at run time: every property read of a managed object and every `add`
    /// asked the runtime's per-thread access set first, and nothing ever holds this reference `inout` (it is read
    /// whole and assigned whole, by the thread its object is confined to), so no two accesses can overlap.
    ///
    /// Assigned in this file only, with ``databaseRow`` (the managed initializer, ``becomeManaged(by:)``). Not a
    /// `didSet`: a property with an observer is read through its getter from other modules, which returned it
    /// retained to every generated getter's `managedAccessor != nil`.
    @exclusivity(unchecked)
    @_spi(StrataGenerated) public fileprivate(set) var managedAccessor: (any ManagedObjectAccessor)?

    /// `managedAccessor` itself when it is a database's row (``ManagedRow``), not counted: what the typed reads
    /// (`managedInt(at:)` and the rest, which the generated getters call) call through without retaining it. A call
    /// through the existential `managedAccessor` (a `var` the call could, for all the compiler knows, assign)
    /// retained and released it around every property read. Set with `managedAccessor` (by the managed initializer
    /// and ``becomeManaged(by:)``) and never cleared, so the object's strong reference keeps the row alive as long
    /// as this one exists; `nil` for an unmanaged object and for any other kind of row (a migration's, a
    /// snapshot's). Not checked for exclusive access at run time, for `managedAccessor`'s reason.
    @exclusivity(unchecked) private(set) var databaseRow: Unmanaged<ManagedRow>?

    /// Creates an unmanaged object.
    public init() {}

    /// Creates a managed instance of the model over a store reference, without reflection: the runtime calls
    /// this through `Object.Type` (found with ``Schema/objectType(named:)``) for each object it hands out.
    ///
    /// - Parameter accessor: The store reference every property of the new instance reads and writes.
    @_spi(StrataGenerated) public required init(managedBy accessor: any ManagedObjectAccessor) {
        managedAccessor = accessor
        databaseRow = Self.databaseRow(of: accessor)
    }

    /// Makes an unmanaged object (or one managed by another database) managed by `row`: how the object layer adds
    /// it to a database. Sets ``databaseRow`` with ``managedAccessor``.
    final func becomeManaged(by row: ManagedRow) {
        managedAccessor = row
        databaseRow = Unmanaged.passUnretained(row)
    }

    /// `accessor` as a database's row, not counted, or `nil` if it is none (a migration's or a snapshot's row):
    /// one comparison of its class, with no dynamic cast.
    @inline(__always)
    private static func databaseRow(of accessor: (any ManagedObjectAccessor)?) -> Unmanaged<ManagedRow>? {
        guard let accessor, ObjectIdentifier(type(of: accessor)) == ObjectIdentifier(ManagedRow.self) else {
            return nil
        }
        return Unmanaged.passUnretained(unsafeDowncast(accessor, to: ManagedRow.self))
    }

    /// Whether the object belongs to a database (its properties read and write the store).
    public var isManaged: Bool { managedAccessor != nil }

    /// The model's static description: its name, its persisted properties with their column indexes, and its
    /// primary key. Generated classes override it; the base class describes a model with no properties.
    @_spi(StrataGenerated) open class var modelDescription: ModelDescription {
        ModelDescription(name: String(describing: self), primaryKey: nil, properties: [])
    }

    /// Every persisted value of an unmanaged object, in column order (``ModelDescription/properties``).
    ///
    /// The object layer reads it when it adds the object to a database. Transient properties and linking
    /// objects are not part of it. An `auto` integer primary key that was never set reads as `.null`: the
    /// runtime assigns the next integer when it adds the object.
    @_spi(StrataGenerated) open func persistedValues() -> [PersistedValue] { [] }

    /// Writes every persisted value of an unmanaged object into `row`, property by property in column order
    /// (``UnmanagedRow/write(_:at:)``, and ``UnmanagedRow/write(elements:at:)`` for lists and sets): how the object
    /// layer inserts a new object, with no array of values made per object.
    ///
    /// Generated classes override it with one statement per property. This version writes ``persistedValues()``.
    @_spi(StrataGenerated) open func writeValues(into row: inout UnmanagedRow) {
        for (column, value) in persistedValues().enumerated() { row.write(value, at: column) }
    }
}

/// The base class of every top-level model the schema compiler generates: objects with an identity of their own,
/// which a database adds (``Database/add(_:update:)``), queries (``Database/objects(_:)``) and deletes. Embedded
/// models derive from ``EmbeddedObject`` instead, so that none of those compile for them.
open class Object: ObjectBase {
    /// Creates an unmanaged object.
    public override init() {
        super.init()
    }

    /// Creates a managed instance over a store reference (see ``ObjectBase/init(managedBy:)``).
    @_spi(StrataGenerated) public required init(managedBy accessor: any ManagedObjectAccessor) {
        super.init(managedBy: accessor)
    }
}

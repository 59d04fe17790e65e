/// The base class of every `embedded: true` model the schema compiler generates.
///
/// An embedded object has no identity of its own: it belongs to exactly one parent object, through a to-one link
/// (`home: Address?`) or a list element (`pastHomes: [Address]`) of the parent, and the database keeps that rule:
/// - assigning an unmanaged embedded object to a managed parent (or adding a parent that holds one) stores it
///   inside the parent, nested embedded objects included, and the instance becomes managed;
/// - assigning an embedded object that already belongs to a parent is an error (a `StrataError` naming the model,
///   the owner and the property) that dooms the write: assign a new, unmanaged copy instead;
/// - an embedded object is deleted with its parent, when the link is set to another value or `nil`, and when it
///   is removed from its list (or the list is cleared or replaced).
///
/// Embedded objects are queried through their parent's key paths (`home.city == "Paris"`,
/// `ANY pastHomes.city == "Lyon"`), never on their own: `Database.objects(_:)`, `add(_:)` and `create(_:value:)`
/// do not compile for an embedded model.
open class EmbeddedObject: ObjectBase {
    /// Creates an unmanaged embedded object.
    public override init() {
        super.init()
    }

    /// Creates a managed instance over a store reference (see ``ObjectBase/init(managedBy:)``).
    @_spi(StrataGenerated) public required init(managedBy accessor: any ManagedObjectAccessor) {
        super.init(managedBy: accessor)
    }
}

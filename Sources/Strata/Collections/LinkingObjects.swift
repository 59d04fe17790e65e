/// The inverse of a link or list: the objects of `Element` whose property points to the owning object.
///
/// Read-only and kept up to date by the store. The property of an unmanaged object is always empty, since no
/// stored object can point to it yet.
public final class LinkingObjects<Element: Object> {
    /// The property of `Element` (a to-one link or a list) this is the inverse of.
    public let propertyName: String
    /// The store reference of a managed object's linking objects.
    private let managed: (any ManagedLinkingObjectsAccessor<Element>)?

    /// Creates the (empty) linking objects of an unmanaged object: the objects of `type` whose `property`
    /// points to it.
    public init(fromType type: Element.Type, property propertyName: String) {
        self.propertyName = propertyName
        managed = nil
    }

    /// Creates live linking objects over a store reference: the object layer calls this.
    @_spi(StrataGenerated) public init(
        property propertyName: String, managedBy accessor: any ManagedLinkingObjectsAccessor<Element>
    ) {
        self.propertyName = propertyName
        managed = accessor
    }

    /// Whether these are the linking objects of a managed object (and so can be non-empty).
    public var isManaged: Bool { managed != nil }

    /// The store reference of managed linking objects (queries read their target and source).
    var managedStorage: (any ManagedLinkingObjectsAccessor<Element>)? { managed }
}

/// `LinkingObjects` is a read-only random-access collection.
extension LinkingObjects: RandomAccessCollection {
    /// Always `0`.
    public var startIndex: Int { 0 }

    /// The number of linking objects.
    ///
    /// - Complexity: O(1).
    public var endIndex: Int { managed?.count ?? 0 }

    /// The object at `index`, which must be in `0..<count`.
    public subscript(index: Int) -> Element {
        guard let managed, index >= 0, index < managed.count else {
            preconditionFailure("LinkingObjects index \(index) is out of range: there are \(count) object(s)")
        }
        return managed.element(at: index)
    }
}

/// The store reference behind one managed ``LinkingObjects``: the object layer implements it from backlinks.
@_spi(StrataGenerated) public protocol ManagedLinkingObjectsAccessor<Element>: AnyObject {
    /// The type of the objects that point here.
    associatedtype Element: Object
    /// How many objects point here.
    var count: Int { get }
    /// The object at `index` (in `0..<count`).
    func element(at index: Int) -> Element
}

/// The store reference behind one managed ``MutableSet``: the object layer implements it over the storage engine.
///
/// Elements are in set order (the store's element order, docs/FILE-FORMAT.md, "Column block"); positions are
/// indices into that order, which the set checks before calling.
@_spi(StrataGenerated) public protocol ManagedSetAccessor<Element>: AnyObject {
    /// The type of the set's elements.
    associatedtype Element: ListElement

    /// The number of elements.
    var count: Int { get }
    /// The element at `index` of the set order.
    func element(at index: Int) -> Element
    /// Whether the set holds `element`.
    func contains(_ element: Element) -> Bool
    /// Adds `element` unless the set holds it already.
    func insert(_ element: Element)
    /// Removes `element` if the set holds it.
    func remove(_ element: Element)
    /// Replaces every element with those of `elements` (repeats are dropped), in one write.
    func replaceAll(with elements: [Element])
}

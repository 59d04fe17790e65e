/// The store reference behind one managed ``List``: the object layer implements it over the storage engine.
///
/// Indices are positions (`0..<count`); the list checks them before calling, so implementations may trust them.
@_spi(StrataGenerated) public protocol ManagedListAccessor<Element>: AnyObject {
    /// The type of the list's elements.
    associatedtype Element: ListElement

    /// The number of elements.
    var count: Int { get }
    /// The element at `index`.
    func element(at index: Int) -> Element
    /// Replaces the element at `index`.
    func replaceElement(at index: Int, with element: Element)
    /// Inserts `element` so that it ends up at `index`.
    func insert(_ element: Element, at index: Int)
    /// Removes the element at `index`.
    func removeElement(at index: Int)
    /// Moves the element at `source` so that it ends up at `destination`, shifting the ones between.
    func moveElement(from source: Int, to destination: Int)
    /// Removes every element.
    func removeAll()
}

/// An ordered to-many relationship, or an ordered list of primitive values, held by a model's property.
///
/// An unmanaged list is a plain array-backed collection. A managed list (the property of an object that belongs
/// to a database) reads and writes the store directly; the same API works on both.
///
/// ```swift
/// member.tags.append("night owl")
/// member.loans.move(from: 0, to: 2)
/// ```
public final class List<Element: ListElement> {
    /// The elements of an unmanaged list; unused once the list is managed.
    private var elements: [Element]
    /// The store reference of a managed list.
    private let managed: (any ManagedListAccessor<Element>)?

    /// Creates an empty, unmanaged list.
    public init() {
        elements = []
        managed = nil
    }

    /// Creates an unmanaged list holding `elements`, in order.
    public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        self.elements = Array(elements)
        managed = nil
    }

    /// Creates a managed list over a store reference: the object layer calls this.
    @_spi(StrataGenerated) public init(managedBy accessor: any ManagedListAccessor<Element>) {
        elements = []
        managed = accessor
    }

    /// The elements of an unmanaged list (`nil` for a managed one): what an unmanaged object's
    /// ``ObjectBase/writeValues(into:)`` reads, inlined in the generated class.
    @usableFromInline var unmanagedElements: [Element]? { managed == nil ? elements : nil }

    /// Whether the list belongs to a database (its changes write the store).
    public var isManaged: Bool { managed != nil }

    /// The store reference of a managed list (queries read its owner and column).
    var managedStorage: (any ManagedListAccessor<Element>)? { managed }

    // MARK: Reading

    /// The number of elements.
    ///
    /// - Complexity: O(1).
    public var count: Int { managed?.count ?? elements.count }

    /// The element at `index`, which must be in `0..<count`.
    ///
    /// - Complexity: O(1).
    public subscript(index: Int) -> Element {
        get {
            checkIndex(index)
            if let managed { return managed.element(at: index) }
            return elements[index]
        }
        set {
            checkIndex(index)
            if let managed { managed.replaceElement(at: index, with: newValue) } else { elements[index] = newValue }
        }
    }

    // MARK: Changing

    /// Adds `element` at the end.
    ///
    /// - Complexity: Amortized O(1) for an unmanaged list.
    public func append(_ element: Element) {
        if let managed { managed.insert(element, at: managed.count) } else { elements.append(element) }
    }

    /// Adds the elements of `newElements` at the end, in order.
    public func append<Elements: Sequence>(contentsOf newElements: Elements) where Elements.Element == Element {
        let added = Array(newElements)  // copied first: `newElements` may be this very list
        if let managed {
            for element in added { managed.insert(element, at: managed.count) }
        } else {
            elements.append(contentsOf: added)
        }
    }

    /// Inserts `element` so that it ends up at `index` (`0...count`).
    ///
    /// - Complexity: O(*n*) for an unmanaged list.
    public func insert(_ element: Element, at index: Int) {
        checkIndex(index, allowingEnd: true)
        if let managed { managed.insert(element, at: index) } else { elements.insert(element, at: index) }
    }

    /// Removes and returns the element at `index`.
    ///
    /// - Complexity: O(*n*) for an unmanaged list.
    @discardableResult
    public func remove(at index: Int) -> Element {
        checkIndex(index)
        if let managed {
            let element = managed.element(at: index)
            managed.removeElement(at: index)
            return element
        }
        return elements.remove(at: index)
    }

    /// Removes every element.
    public func removeAll() {
        if let managed { managed.removeAll() } else { elements.removeAll() }
    }

    /// Moves the element at `source` so that it ends up at `destination`, shifting the elements between.
    ///
    /// - Complexity: O(*n*) for an unmanaged list.
    public func move(from source: Int, to destination: Int) {
        checkIndex(source)
        checkIndex(destination)
        if let managed {
            managed.moveElement(from: source, to: destination)
        } else {
            elements.insert(elements.remove(at: source), at: destination)
        }
    }

    /// Exchanges the elements at `index1` and `index2`.
    public func swapAt(_ index1: Int, _ index2: Int) {
        guard index1 != index2 else { return }
        let first = self[index1]
        self[index1] = self[index2]
        self[index2] = first
    }

    /// Exchanges the elements at `index1` and `index2` (Realm's spelling of ``swapAt(_:_:)``).
    public func swap(index1: Int, _ index2: Int) {
        swapAt(index1, index2)
    }

    /// Replaces the element at `index` with `element` (Realm's spelling of `list[index] = element`).
    public func replace(index: Int, object element: Element) {
        self[index] = element
    }

    /// Stops with a message naming the list's bounds: an index out of range is a programming error, as with
    /// `Array`.
    private func checkIndex(_ index: Int, allowingEnd: Bool = false) {
        let upperBound = allowingEnd ? count : count - 1
        precondition(
            index >= 0 && index <= upperBound,
            "List index \(index) is out of range: the list has \(count) element(s)"
        )
    }
}

extension List {
    /// Replaces a range of an unmanaged list's array (here because the array is private to this file).
    func replaceUnmanagedSubrange(_ subrange: Range<Int>, with replacement: [Element]) {
        elements.replaceSubrange(subrange, with: replacement)
    }
}

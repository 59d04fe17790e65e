/// An unordered collection of distinct values or objects held by a model's `set<T>` property, like Realm's
/// `MutableSet`.
///
/// An unmanaged set is a plain in-memory collection that keeps its elements in the order they were first inserted;
/// a managed set (the property of an object that belongs to a database) reads and writes the store directly and
/// keeps its elements in the store's element order (docs/API.md, "Sets and maps"): the positions iteration and
/// change notifications use. Two elements are the same when their stored values are equal (objects: the same
/// stored object, or the same instance while unmanaged).
///
/// ```swift
/// person.nicknames.insert("Bea")
/// if person.nicknames.contains("Bea") { … }
/// ```
public final class MutableSet<Element: ListElement> {
    /// The elements of an unmanaged set, in insertion order; unused once the set is managed.
    private var elements: [Element]
    /// The store reference of a managed set.
    private let managed: (any ManagedSetAccessor<Element>)?

    /// Creates an empty, unmanaged set.
    public init() {
        elements = []
        managed = nil
    }

    /// Creates an unmanaged set holding the distinct elements of `elements`, in their first order.
    ///
    /// The overload an array (what a generated initializer passes) takes, and the one place a set is built: the
    /// generic one below, unspecialized in the app's module, looked up the metadata of the argument's type on every
    /// call, about as much as the rest of building a set of five strings.
    public init(_ elements: [Element]) {
        managed = nil
        // Strings (the common set) are the same when they are equal, as their stored values are: compared
        // directly, without a stored value made for each, and an array without repeats taken as it is (no copy).
        // Told by the type, not by casting the array (`as? [String]` and back cast element by element, a tenth of
        // building a person's five nicknames).
        if Element.self == String.self {
            let strings = unsafeBitCast(elements, to: [String].self)
            self.elements = unsafeBitCast(MutableSet.distinct(strings), to: [Element].self)
            return
        }
        // Each element's identity worked out once: inserting one by one worked out every kept element's again
        // for each new one.
        var kept: [Element] = []
        var identities: [ElementIdentity] = []
        for element in elements {
            let identity = ElementIdentity(element)
            guard !identities.contains(identity) else { continue }
            identities.append(identity)
            kept.append(element)
        }
        self.elements = kept
    }

    /// Creates an unmanaged set holding the distinct elements of `elements`, in their first order.
    public convenience init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        self.init(Array(elements))
    }

    /// The distinct strings of `strings` in their first order (equal as `ElementIdentity` finds their stored
    /// values equal).
    /// Strings without repeats (the usual case) come back as they are, without a new array.
    private static func distinct(_ strings: [String]) -> [String] {
        var firstRepeat = 1
        while firstRepeat < strings.count, !strings[..<firstRepeat].contains(strings[firstRepeat]) { firstRepeat += 1 }
        guard firstRepeat < strings.count else { return strings }
        var kept = Array(strings[..<firstRepeat])
        for text in strings[firstRepeat...] where !kept.contains(text) { kept.append(text) }
        return kept
    }

    /// Creates a managed set over a store reference: the object layer calls this.
    @_spi(StrataGenerated) public init(managedBy accessor: any ManagedSetAccessor<Element>) {
        elements = []
        managed = accessor
    }

    /// The elements of an unmanaged set (`nil` for a managed one): what ``map(_:)`` reads, inlined in the caller.
    @usableFromInline var unmanagedElements: [Element]? { managed == nil ? elements : nil }

    /// The results of `transform` on each element, in the set's order: a generated object's persisted values map
    /// its sets this way. Inlined into the caller, so an unmanaged set of strings maps its array directly; through
    /// the collection's generic `map`, each element cost a call for the count and one for the element, neither
    /// specialized in the app's module.
    @inlinable
    public func map<T, Failure: Error>(_ transform: (Element) throws(Failure) -> T) throws(Failure) -> [T] {
        if let elements = unmanagedElements { return try elements.map(transform) }
        var results: [T] = []
        results.reserveCapacity(count)
        for element in self { results.append(try transform(element)) }
        return results
    }

    /// Whether the set belongs to a database (its changes write the store).
    public var isManaged: Bool { managed != nil }

    /// The store reference of a managed set (observation reads its owner and column).
    var managedStorage: (any ManagedSetAccessor<Element>)? { managed }

    // MARK: Reading

    /// The number of elements.
    ///
    /// - Complexity: O(1).
    public var count: Int { managed?.count ?? elements.count }

    /// Whether the set holds `element`.
    ///
    /// - Complexity: O(log *n*) for a managed set (a binary search of the stored elements), O(*n*) unmanaged.
    public func contains(_ element: Element) -> Bool {
        if let managed { return managed.contains(element) }
        let key = ElementIdentity(element)
        return elements.contains { ElementIdentity($0) == key }
    }

    /// Whether the set and `other` have an element in common.
    public func intersects<Other: Sequence>(_ other: Other) -> Bool where Other.Element == Element {
        other.contains { contains($0) }
    }

    /// Whether every element of the set is in `other`.
    public func isSubset(of other: MutableSet<Element>) -> Bool {
        allSatisfy { other.contains($0) }
    }

    /// Whether every element of the set is in `other`.
    public func isSubset<Other: Sequence>(of other: Other) -> Bool where Other.Element == Element {
        isSubset(of: MutableSet(other))
    }

    // MARK: Changing

    /// Adds `element` unless the set holds it already.
    public func insert(_ element: Element) {
        if let managed {
            managed.insert(element)
        } else if !contains(element) {
            elements.append(element)
        }
    }

    /// Adds every element of `objects` the set does not hold (Realm's spelling of ``formUnion(_:)``).
    public func insert<Elements: Sequence>(objectsIn objects: Elements) where Elements.Element == Element {
        formUnion(objects)
    }

    /// Removes `element` if the set holds it.
    public func remove(_ element: Element) {
        if let managed {
            managed.remove(element)
        } else {
            let key = ElementIdentity(element)
            elements.removeAll { ElementIdentity($0) == key }
        }
    }

    /// Removes every element.
    public func removeAll() {
        if let managed { managed.replaceAll(with: []) } else { elements.removeAll() }
    }

    /// Adds every element of `other` the set does not hold.
    public func formUnion<Other: Sequence>(_ other: Other) where Other.Element == Element {
        let added = Array(other)  // copied first: `other` may be this very set
        if let managed {
            managed.replaceAll(with: Array(self) + added)
        } else {
            for element in added { insert(element) }
        }
    }

    /// Keeps only the elements that are also in `other`.
    public func formIntersection<Other: Sequence>(_ other: Other) where Other.Element == Element {
        let kept = MutableSet(other)
        replace(with: filter { kept.contains($0) })
    }

    /// Removes every element that is in `other`.
    public func subtract<Other: Sequence>(_ other: Other) where Other.Element == Element {
        let removed = MutableSet(other)
        replace(with: filter { !removed.contains($0) })
    }

    /// Replaces every element with those of `elements` (one write for a managed set).
    func replace(with elements: [Element]) {
        if let managed {
            managed.replaceAll(with: elements)
        } else {
            self.elements = []
            for element in elements { insert(element) }
        }
    }

    /// The element at `index` of the set's order (insertion order unmanaged, element order managed).
    func element(at index: Int) -> Element {
        if let managed { return managed.element(at: index) }
        return elements[index]
    }
}

/// `MutableSet` is a random-access collection of its elements, in its order (insertion order while unmanaged, the
/// store's element order once managed).
extension MutableSet: RandomAccessCollection {
    /// Always `0`.
    public var startIndex: Int { 0 }

    /// `count`: the position after the last element.
    public var endIndex: Int { count }

    /// The element at `position`, which must be in `0..<count`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < count,
                     "MutableSet index \(position) is out of range: the set has \(count) element(s)")
        return element(at: position)
    }
}

extension MutableSet: CustomStringConvertible {
    /// The elements, as an array prints them: `MutableSet<String>["a", "b"]`.
    public var description: String {
        "MutableSet<\(Element.self)>\(Array(self))"
    }
}

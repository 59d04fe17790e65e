/// `List` is a random-access, mutable, range-replaceable collection indexed by position.
extension List: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    /// Always `0`.
    public var startIndex: Int { 0 }

    /// `count`: the position after the last element.
    public var endIndex: Int { count }

    /// Replaces the elements in `subrange` with those of `newElements`.
    ///
    /// - Complexity: O(*n* + *m*), where *n* is the list's length and *m* the number of new elements.
    public func replaceSubrange<Elements: Collection>(
        _ subrange: Range<Int>, with newElements: Elements
    ) where Elements.Element == Element {
        // Copied first: `newElements` may be this very list, which must not be read while it changes.
        let replacement = Array(newElements)
        precondition(
            subrange.lowerBound >= 0 && subrange.upperBound <= count,
            "List range \(subrange) is out of range: the list has \(count) element(s)"
        )
        if isManaged {
            for index in subrange.reversed() { remove(at: index) }
            for (offset, element) in replacement.enumerated() { insert(element, at: subrange.lowerBound + offset) }
        } else {
            replaceUnmanagedSubrange(subrange, with: replacement)
        }
    }

    /// Removes every element; the capacity hint only matters to unmanaged lists and is ignored.
    public func removeAll(keepingCapacity keepCapacity: Bool) {
        removeAll()
    }
}

extension List where Element: Equatable {
    /// The position of the first element equal to `element`, or `nil`.
    ///
    /// - Complexity: O(*n*).
    public func index(of element: Element) -> Int? {
        firstIndex(of: element)
    }
}

extension List where Element: Object {
    /// The position of `object` in the list (the same instance, or the same stored object), or `nil`.
    ///
    /// - Complexity: O(*n*).
    public func index(of object: Element) -> Int? {
        firstIndex { $0 === object || ($0.isManaged && $0.managedAccessor === object.managedAccessor) }
    }
}

extension List: CustomStringConvertible {
    /// The elements, as an array prints them: `List<String>["a", "b"]`.
    public var description: String {
        "List<\(Element.self)>\(Array(self))"
    }
}

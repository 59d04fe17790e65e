/// The first `capacity` elements, in an order, of a sequence offered one at a time: a binary heap whose root is
/// the last one kept, so each offer costs O(log capacity) and the whole sequence is never sorted.
///
/// The top-k of `Results.prefix(_:)` on sorted results: a million objects sorted for their first ten keep ten.
struct BoundedHeap<Element> {
    /// How many elements are kept at most.
    let capacity: Int
    /// Whether the first element comes before the second (a strict order).
    private let before: (Element, Element) -> Bool
    /// The kept elements as a heap: each comes after (or ties) its children in `before`'s order.
    private var elements: [Element] = []

    /// An empty heap that keeps the first `capacity` elements in `before`'s order.
    init(capacity: Int, before: @escaping (Element, Element) -> Bool) {
        self.capacity = Swift.max(capacity, 0)
        self.before = before
        elements.reserveCapacity(Swift.min(self.capacity, 4096))
    }

    /// Keeps `element` if it is among the first `capacity` offered so far (an element that ties the last kept
    /// one is not kept: the earlier one stays, as a stable sort would have it).
    mutating func offer(_ element: Element) {
        if elements.count < capacity {
            elements.append(element)
            siftUp(elements.count - 1)
        } else if capacity > 0, before(element, elements[0]) {
            elements[0] = element
            siftDown(0)
        }
    }

    /// The kept elements, in order.
    func sorted() -> [Element] { elements.sorted(by: before) }

    /// The last of the kept elements once ``capacity`` are kept (`nil` before): an element offered from then on
    /// is kept only if it comes before this one.
    var worst: Element? { capacity > 0 && elements.count == capacity ? elements[0] : nil }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(elements[parent], elements[child]) else { return }
            elements.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var last = parent
            if left < elements.count, before(elements[last], elements[left]) { last = left }
            if right < elements.count, before(elements[last], elements[right]) { last = right }
            guard last != parent else { return }
            elements.swapAt(parent, last)
            parent = last
        }
    }
}

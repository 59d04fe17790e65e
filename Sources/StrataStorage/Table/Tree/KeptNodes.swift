/// Values a read transaction's tree keeps per stored node (its branches' views, its leaves' payloads): a slot per
/// node, found by its page number's Fibonacci hash (a multiply and a shift, no hashing of the reference), holding
/// the last node that fell on it.
///
/// The slots start at `first` and double, up to `most`, once as many nodes have replaced others as there are
/// slots: a tree read at random grows them until most of what it reads stays kept, a tree read once in order (or
/// barely read) keeps the first size. The hash spreads nodes that span several pages (16 KiB clusters) and nodes
/// on neighbouring pages over every slot, which the page number modulo the slot count did not.
struct KeptNodes<Value> {
    private var slots: [(ref: NodeRef, value: Value?)] = []
    /// The right shift that turns a page number's hash into a slot.
    private var shift = 0
    /// How many kept nodes were replaced by another since the slots last grew.
    private var evictions = 0
    private let first: Int
    private let most: Int

    /// Slots for nodes, `first` of them made on the first ``keep(_:for:)``, at most `most` (powers of two).
    init(first: Int, most: Int) {
        precondition(first > 0 && first.nonzeroBitCount == 1 && most >= first && most.nonzeroBitCount == 1)
        self.first = first
        self.most = most
    }

    /// How many slots there are now (0 before the first node is kept).
    var slotCount: Int { slots.count }

    /// The value kept for `ref`, or `nil`.
    @inline(__always)
    func value(for ref: NodeRef) -> Value? {
        guard !slots.isEmpty else { return nil }
        let kept = slots[slot(ref)]
        return kept.ref == ref ? kept.value : nil
    }

    /// Keeps `value` for `ref`, in place of what its slot held.
    mutating func keep(_ value: Value, for ref: NodeRef) {
        if slots.isEmpty { resize(to: first) }
        if !slots[slot(ref)].ref.isNone {
            evictions += 1
            if evictions >= slots.count, slots.count < most { resize(to: slots.count * 2) }
        }
        slots[slot(ref)] = (ref, value)
    }

    @inline(__always)
    private func slot(_ ref: NodeRef) -> Int {
        Int(truncatingIfNeeded: (ref.page &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// Makes `count` slots, keeping what they held (two nodes that fall on one slot keep the later).
    private mutating func resize(to count: Int) {
        let old = slots
        slots = Array(repeating: (NodeRef.none, nil), count: count)
        shift = 64 - count.trailingZeroBitCount
        evictions = 0
        for kept in old where !kept.ref.isNone { slots[slot(kept.ref)] = kept }
    }
}

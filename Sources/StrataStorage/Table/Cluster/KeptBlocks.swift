/// The column blocks of one stored cluster decoded so far, by storage position, in memory of their own: a read
/// transaction's typed reads use a block where it lies (`blocks[index].word(row)`) instead of a copy of it (about
/// 100 bytes, through `memmove`) out of an array of optionals.
///
/// A slot holds a block while its stamp is the current one, so ``clear()`` forgets every block at once, without a
/// pass over the slots. Blocks point into their cluster's node: keep them no longer than the node stays mapped (a
/// read transaction's table clears them whenever it moves to another cluster).
final class KeptBlocks {
    /// How many slots there are (the table's columns).
    let count: Int
    /// Slot `index`'s block, initialized once its stamp is `stamp` (`ColumnBlock` holds no references, so a
    /// slot is overwritten without deinitializing it).
    private let blocks: UnsafeMutablePointer<ColumnBlock>
    private let stamps: UnsafeMutablePointer<UInt64>
    /// The stamp of the slots holding a block; slots start at 0.
    private var stamp: UInt64 = 1

    /// Empty slots for `count` columns.
    init(count: Int) {
        precondition(count >= 0, "Strata: a negative number of kept blocks")
        // Slots are overwritten and freed without deinitializing: a block must hold no reference.
        assert(_isPOD(ColumnBlock.self), "Strata: ColumnBlock must stay a plain value for KeptBlocks")
        self.count = count
        blocks = .allocate(capacity: count)
        stamps = .allocate(capacity: count)
        stamps.initialize(repeating: 0, count: count)
    }

    deinit {
        blocks.deallocate()
        stamps.deallocate()
    }

    /// Whether slot `index` holds a block (`false` past the slots).
    @inline(__always)
    func holds(_ index: Int) -> Bool { index >= 0 && index < count && stamps[index] == stamp }

    /// Slot `index`'s block, read in place. The caller checked ``holds(_:)``.
    @inline(__always)
    subscript(index: Int) -> ColumnBlock {
        unsafeAddress { UnsafePointer(blocks + index) }
    }

    /// Puts `block` in slot `index`.
    func keep(_ block: ColumnBlock, at index: Int) {
        precondition(index >= 0 && index < count, "Strata: kept block \(index) of \(count)")
        (blocks + index).initialize(to: block)
        stamps[index] = stamp
    }

    /// Forgets every block.
    func clear() { stamp &+= 1 }
}

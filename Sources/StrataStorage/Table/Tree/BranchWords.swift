/// A stored branch's separators as one word each, for the searches of a read transaction's kept branch (see
/// ``KeptBranch``): the bytes every separator starts with once, then each separator's next 8 bytes as a
/// big-endian number, in one array.
///
/// A search of ``BranchView`` reads each probed separator's entry and then its bytes elsewhere in the node: two
/// cache lines a probe, seven probes a branch of 128 children, and two branches per tree a lookup. Between two
/// lookups the leaves they read push the branches out of the nearer caches, so a search mostly waits for those
/// lines. The words of a branch are one kilobyte in a row, and a probe compares one of them.
///
/// Two words that differ order their separators as the bytes do: the words are the bytes after the shared prefix,
/// padded with zeros, and at the first byte where two padded words differ either both bytes are real (so the
/// separators differ there) or the one that is padding belongs to a separator that is a prefix of the other,
/// which sorts first. Only equal words need the separators' bytes compared (an object key equal to a cluster's
/// first key, or index separators that agree on 8 bytes past the prefix).
struct BranchWords {
    /// How many searches a kept branch answers by its view before it builds its words: a read transaction that
    /// looks one object up should not pay for the words of every branch on its path.
    static let searchesBeforeBuilding = 4

    /// The bytes separators 1 and on all start with (separator 0 is the leftmost child's open bound, never
    /// compared).
    private let prefix: [UInt8]
    /// For each separator from 1 on, the 8 bytes after ``prefix`` (zero-padded), big-endian; `words[0]` is unused.
    private let words: [UInt64]

    /// The words of `view`'s separators, every separator's bounds checked.
    /// - Throws: `StrataError.corruptFile` when a separator lies outside the node.
    init(_ view: BranchView) throws {
        guard view.count > 1 else {
            prefix = []
            words = [0]
            return
        }
        let first = try view.key(1)
        var shared = first.count
        for index in 2..<view.count {
            let key = try view.key(index)
            shared = Self.sharedLength(first, key, atMost: shared)
        }
        prefix = Array(first[..<shared])
        var words = [UInt64](repeating: 0, count: view.count)
        for index in 1..<view.count { words[index] = Self.word(try view.key(index), from: shared) }
        self.words = words
    }

    /// How many leading bytes `left` and `right` share, at most `limit`.
    private static func sharedLength(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer, atMost limit: Int) -> Int {
        let end = min(limit, left.count, right.count)
        var index = 0
        while index < end, left[index] == right[index] { index += 1 }
        return index
    }

    /// The up to 8 bytes of `bytes` from `offset` as a big-endian number, zeros after the end.
    @inline(__always)
    static func word(_ bytes: UnsafeRawBufferPointer, from offset: Int) -> UInt64 {
        let available = bytes.count - offset
        guard available > 0, let base = bytes.baseAddress else { return 0 }
        if available >= 8 { return UInt64(bigEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        var word: UInt64 = 0
        for index in 0..<available { word |= UInt64(base.load(fromByteOffset: offset + index, as: UInt8.self)) << (56 - 8 * index) }
        return word
    }

    /// The child of `view` (the branch these words were made from) whose key range holds `key`: the last child
    /// whose separator is ≤ `key`, as ``BranchView/childIndex(for:)`` answers.
    /// - Throws: `StrataError.corruptFile` when a separator compared in full lies outside the node.
    @inline(__always)
    func childIndex(for key: UnsafeRawBufferPointer, in view: BranchView) throws -> Int {
        let count = words.count
        guard count > 1 else { return 0 }
        let shared = prefix.count
        if shared > 0 {
            // Against the shared prefix first: a key that differs from it there sorts before or after every
            // separator (one shorter that agrees with it as far as it goes sorts before).
            let head = UnsafeRawBufferPointer(rebasing: key[..<min(shared, key.count)])
            let order = prefix.withUnsafeBytes { ByteOrder.compare(head, $0) }
            if order < 0 { return 0 }
            if order > 0 { return count - 1 }
        }
        let target = Self.word(key, from: shared)
        // The first separator from 1 on that sorts after `key`, then the child before it.
        var low = 1
        var high = count
        try words.withUnsafeBufferPointer { words in
            while low < high {
                let middle = (low + high) >> 1
                let word = words[middle]
                let after = word != target ? word > target : ByteOrder.compare(try view.key(middle), key) > 0
                if after { high = middle } else { low = middle + 1 }
            }
        }
        return low - 1
    }
}

/// A branch a read transaction's tree keeps (see ``NodeTree/cacheStoredBranches()``): its view, and once it has
/// answered a few searches, its separators' words (``BranchWords``).
final class KeptBranch {
    /// The branch, read in place.
    let view: BranchView
    // Not checked for exclusive access at run time, as `NodeTree`'s own fields: a tree belongs to one transaction,
    // used by one thread at a time, and these are read and assigned whole on every descent.

    /// How many searches the view answered; the words are built at ``BranchWords/searchesBeforeBuilding``.
    @exclusivity(unchecked) private var searches = 0
    /// The separators' words, once built.
    @exclusivity(unchecked) private var words: BranchWords?

    init(_ view: BranchView) {
        self.view = view
    }

    /// Whether the words are built; for tests.
    var hasWords: Bool { words != nil }

    /// The child whose key range holds `key` (``BranchView/childIndex(for:)``), from the words once they are
    /// built.
    /// - Throws: `StrataError.corruptFile` when a separator lies outside the node.
    @inline(__always)
    func childIndex(for key: UnsafeRawBufferPointer) throws -> Int {
        if let words { return try words.childIndex(for: key, in: view) }
        searches += 1
        guard searches >= BranchWords.searchesBeforeBuilding else { return try view.childIndex(for: key) }
        let built = try BranchWords(view)
        words = built
        return try built.childIndex(for: key, in: view)
    }
}

import Synchronization

/// Atomic access to an aligned 64-bit word of memory shared between processes (the lock file's mapping).
///
/// `Atomic` compiles to the processor's plain atomic instructions on the word's address, so threads of different
/// processes mapping the same file page order their accesses as threads of one process do.
struct SharedWord {
    private let word: UnsafeMutablePointer<Atomic<UInt64>>

    /// The word at `offset` bytes from `base`; `base + offset` must be 8-byte aligned.
    init(_ base: UnsafeMutableRawPointer, at offset: Int) {
        precondition((Int(bitPattern: base) + offset) % 8 == 0, "a shared word must be 8-byte aligned")
        word = (base + offset).assumingMemoryBound(to: Atomic<UInt64>.self)
    }

    /// The word's value, ordered after every access before it and before every access after it.
    func load() -> UInt64 { word.pointee.load(ordering: .sequentiallyConsistent) }

    /// Sets the word, ordered after every access before it and before every access after it.
    func store(_ value: UInt64) { word.pointee.store(value, ordering: .sequentiallyConsistent) }

    /// Orders every memory access before it before every access after it, for this thread, as seen by threads of
    /// every process.
    static func fence() { atomicMemoryFence(ordering: .sequentiallyConsistent) }

    /// Raises the word to `value` unless it already holds `value` or more; returns whether it did.
    @discardableResult
    func raise(to value: UInt64) -> Bool { raise(to: value) { $0 } }

    /// Sets the word to `value` unless `key` of the word's value is already `key(value)` or more; returns whether
    /// it did. For words that pack an ordering key with other bits (the durable version and its slot).
    @discardableResult
    func raise(to value: UInt64, key: (UInt64) -> UInt64) -> Bool {
        var current = load()
        while key(current) < key(value) {
            let (exchanged, found) = word.pointee.compareExchange(
                expected: current, desired: value, ordering: .sequentiallyConsistent)
            if exchanged { return true }
            current = found
        }
        return false
    }
}

/// The pins this process's readers hold, each with how many readers hold it (`Store.pins`).
///
/// A process holds a handful of distinct pins at a time (one per version its open readers read), so they are kept
/// in an array and searched, not hashed: the first `Dictionary<ReaderPin, Int>` a process made cost the Swift
/// runtime a search of the whole program's conformance records for `ReaderPin: Hashable` (about a tenth of the CPU
/// of a cold open with a count in strata-bench's W6; docs/BENCHMARKS.md, "Cold open: the pins without a
/// dictionary, tables bound by their shape").
struct PinCounts {
    /// One distinct pin and the number of readers holding it (at least 1).
    private struct Entry {
        var pin: ReaderPin
        var readers: Int
    }

    private var entries: [Entry] = []

    /// Counts one more reader of `pin`.
    mutating func add(_ pin: ReaderPin) {
        if let index = entries.firstIndex(where: { $0.pin == pin }) {
            entries[index].readers += 1
        } else {
            entries.append(Entry(pin: pin, readers: 1))
        }
    }

    /// Counts one reader of `pin` fewer, dropping the pin with its last reader (nothing when no reader holds it).
    mutating func remove(_ pin: ReaderPin) {
        guard let index = entries.firstIndex(where: { $0.pin == pin }) else { return }
        if entries[index].readers > 1 {
            entries[index].readers -= 1
        } else {
            entries.remove(at: index)
        }
    }

    /// The oldest pin held (by version, then generation), or nil when no reader holds one.
    var oldest: ReaderPin? { entries.lazy.map(\.pin).min() }

    /// Every distinct pin held, in no particular order.
    var pins: [ReaderPin] { entries.map(\.pin) }
}

import Synchronization

/// The changes this server process's uploads committed lately, numbered, so that a waiting download (long poll)
/// woken by them answers from memory, without reading the change log again (docs/SYNC.md, "Answers from memory").
///
/// An entry is added once its upload's commit is visible and its sequence numbers are read back
/// (`UploadTransaction.finish(_:)`), before the upload is announced. A page is answered from memory only when every
/// number after the download's cursor up to the page's end is an entry here: then nothing committed in that range is
/// missing, whoever wrote it, because every number of the range is one of this process's committed changes. A number
/// this process did not write (another server process's change, a number drawn by a commit that rolled back) is a
/// gap, and the download reads the log as before (`ChangeLog.read`), which knows the watermark. The rules' filter is
/// applied to each entry as the log read applies it (`AccessRules.mayRead(model:owner:user:)`).
public final class RecentChanges: Sendable {
    /// One committed change with what the rules' filter needs.
    struct Entry: Sendable {
        /// The change as the log holds it.
        var change: ServerChange
        /// The object's owner (`nil` for a shared model's change), as the log's `owner_id`.
        var owner: String?
    }

    private struct State {
        var entries: [Int64: Entry] = [:]
        /// The numbers in the order they were added, to drop the oldest past `capacity`.
        var order: [Int64] = []
        var dropped = 0
        /// The highest number added.
        var highest: Int64 = 0
    }

    /// How many entries are kept at most.
    let capacity: Int
    private let state = Mutex(State())

    /// Keeps at most `capacity` changes (the oldest go first).
    public init(capacity: Int = 8_192) {
        self.capacity = max(1, capacity)
    }

    /// How many changes are kept now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Adds committed changes (their sequence numbers read back after the commit).
    func add(_ added: [Entry]) {
        guard !added.isEmpty else { return }
        state.withLock { state in
            for entry in added where state.entries.updateValue(entry, forKey: entry.change.serverSeq) == nil {
                state.order.append(entry.change.serverSeq)
                state.highest = max(state.highest, entry.change.serverSeq)
            }
            let excess = state.order.count - state.dropped - capacity
            if excess > 0 {
                for seq in state.order[state.dropped..<(state.dropped + excess)] { state.entries[seq] = nil }
                state.dropped += excess
            }
            if state.dropped > capacity {
                state.order.removeFirst(state.dropped)
                state.dropped = 0
            }
        }
    }

    /// The changes after `after` that `user` may see under `rules`, at most `limit`, when every number from
    /// `after + 1` to the page's end is held here; `nil` when `after + 1` is not (the log must be read), or when the
    /// range held holds no change the user may see (then the log's read decides, as before, where the cursor goes).
    /// `more` says that a number above the page's end is held (as the log's read says when one is committed above
    /// it): the page stopped at the `limit`, or at a number not held here, which the next download reads from the log.
    func page(after: Int64, user: String, rules: AccessRules, limit: Int) -> DownloadResponse? {
        state.withLock { state -> DownloadResponse? in
            var changes: [ServerChange] = []
            var last = after
            while let entry = state.entries[last + 1] {
                if changes.count == limit { break }
                last += 1
                if rules.mayRead(model: entry.change.change.model, owner: entry.owner, user: user) {
                    changes.append(entry.change)
                }
            }
            guard !changes.isEmpty else { return nil }
            return DownloadResponse(changes: changes, last: last, more: state.highest > last)
        }
    }
}

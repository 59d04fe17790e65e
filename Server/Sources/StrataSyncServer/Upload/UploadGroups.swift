import Synchronization

/// Group commit of uploads: the uploads that wait at one moment are applied together, by one `UploadTransaction`
/// (one lock-and-load, one write and commit with its WAL flush, one release), each answered with its own outcome
/// or error (docs/SYNC.md, "Group commit").
///
/// At most ``leaders`` groups are in flight at once in this process. An upload that arrives while fewer are leads a
/// group of itself at once (an idle server adds no wait); otherwise it waits. When a group is done, its leader
/// hands the uploads waiting by then, as the next group, to the first of them, which leads it; the rest of its own
/// group are answered. A group takes waiting uploads in their order of arrival up to ``maxChanges`` changes (the
/// first always, whatever its size), so that its locks stay within what PostgreSQL's lock table holds; the others
/// wait for the next group.
///
/// An upload of more than ``soloChanges`` changes (a device catching up after a time offline) is applied alone, at
/// once, beside the groups and not counted among them: its round trips are already shared by its many changes, and
/// several such uploads keep both PostgreSQL's and the server's cores busy side by side, which groups in flight one
/// or two at a time would not (docs/BENCHMARKS.md, "Sync: a group commit of the uploads waiting at one moment").
///
/// Nothing here is shared between server processes: each groups its own uploads, and groups of different processes
/// wait for each other's locks like single uploads do.
final class UploadGroups: Sendable {
    /// How a group is applied: one outcome or error per upload, in order (the group's error for each when the whole
    /// group failed).
    typealias Apply = @Sendable ([UploadTransaction.Upload]) async -> [Result<UploadTransaction.Outcome, any Error>]

    /// What a waiting upload is resumed with.
    private enum Turn: Sendable {
        /// The upload was applied in another's group: its outcome or error.
        case done(Result<UploadTransaction.Outcome, any Error>)
        /// The upload leads the next group: itself, then these.
        case lead([Waiting])
    }

    /// An upload waiting for a group.
    private struct Waiting: Sendable {
        let upload: UploadTransaction.Upload
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var waiting: [Waiting] = []
        var inFlight = 0
    }

    /// How many groups may be in flight at once.
    let leaders: Int
    /// How many changes a group takes at most (beyond its first upload's).
    let maxChanges: Int
    /// The most changes an upload may have to join a group; a larger one is applied alone, at once.
    let soloChanges: Int
    private let state = Mutex(State())

    /// How many uploads wait for a group now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Groups uploads of at most `soloChanges` changes, with at most `leaders` groups in flight (at least one) of at
    /// most `maxChanges` changes.
    init(leaders: Int, maxChanges: Int, soloChanges: Int = 100) {
        self.leaders = max(1, leaders)
        self.maxChanges = maxChanges
        self.soloChanges = soloChanges
    }

    /// Applies `upload` in a group with the uploads waiting alongside it, through `apply`.
    /// - Returns: the upload's own outcome.
    /// - Throws: the upload's own error, or the group's.
    func submit(_ upload: UploadTransaction.Upload, apply: Apply) async throws -> UploadTransaction.Outcome {
        guard upload.changes.count <= soloChanges else { return try await apply([upload])[0].get() }
        let leads = state.withLock { state in
            guard state.inFlight < leaders else { return false }
            state.inFlight += 1
            return true
        }
        var others: [Waiting] = []
        if !leads {
            let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
                let leadsNow = state.withLock { state in
                    // A group may have ended since the first look; then no one would come for this upload.
                    guard state.inFlight < leaders else {
                        state.waiting.append(Waiting(upload: upload, continuation: continuation))
                        return false
                    }
                    state.inFlight += 1
                    return true
                }
                if leadsNow { continuation.resume(returning: .lead([])) }
            }
            switch turn {
            case .done(let result): return try result.get()
            case .lead(let group): others = group
            }
        }
        let results = await apply([upload] + others.map(\.upload))
        handOver()
        for (index, waiting) in others.enumerated() {
            waiting.continuation.resume(returning: .done(results[index + 1]))
        }
        return try results[0].get()
    }

    /// Gives the uploads waiting now, as the next group, to the first of them; or ends this group's turn.
    private func handOver() {
        let next: (Waiting, [Waiting])? = state.withLock { state in
            guard let first = state.waiting.first else {
                state.inFlight -= 1
                return nil
            }
            var changes = first.upload.changes.count
            var taken = 1
            while taken < state.waiting.count {
                let count = state.waiting[taken].upload.changes.count
                guard changes + count <= maxChanges else { break }
                changes += count
                taken += 1
            }
            let group = Array(state.waiting[1..<taken])
            state.waiting.removeFirst(taken)
            return (first, group)
        }
        if let (leader, group) = next { leader.continuation.resume(returning: .lead(group)) }
    }
}

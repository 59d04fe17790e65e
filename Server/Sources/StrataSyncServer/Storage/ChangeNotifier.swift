import Synchronization

/// Wakes the downloads waiting in this server process (long polls) when the change log grows: at once after an
/// upload of this process commits, and on `NOTIFY` for uploads of other server processes (`ChangeListener`).
///
/// A waiter remembers the notifier's `generation` before it reads the log, and waits for a later one, so a change
/// committed between its read and its wait still wakes it.
public final class ChangeNotifier: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var highestSequence: Int64 = 0
        var nextWaiter = 0
        var waiters: [Int: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())

    /// Creates a notifier with no waiter.
    public init() {}

    /// The number of wake-ups so far.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Announces that the log holds sequence number `sequence`; wakes the waiters unless an earlier announcement
    /// already covered it (an upload of this process is announced twice: directly, then by its `NOTIFY`).
    public func announce(_ sequence: Int64) {
        wake { state in
            guard sequence > state.highestSequence else { return false }
            state.highestSequence = sequence
            return true
        }
    }

    /// Wakes every waiter (after the `LISTEN` connection was lost, when announcements may have been missed).
    public func wakeAll() { wake { _ in true } }

    /// Returns once the generation passes `seen`, or after `timeout`, or when the task is cancelled.
    public func wait(past seen: UInt64, timeout: Duration) async {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.resume(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.generation > seen || Task.isCancelled { return true }
                    state.waiters[id] = (seen, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            resume(id)
        }
        timer.cancel()
    }

    private func resume(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
    }

    private func wake(_ update: (inout State) -> Bool) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard update(&state) else { return [] }
            state.generation += 1
            let all = state.waiters.values.map(\.continuation)
            state.waiters = [:]
            return all
        }
        for continuation in woken { continuation.resume() }
    }
}

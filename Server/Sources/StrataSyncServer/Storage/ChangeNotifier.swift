import Synchronization

/// Wakes the downloads waiting in this server process (long polls) when the change log grows: at once after an
/// upload of this process commits, and on `NOTIFY` for uploads of other server processes (`ChangeListener`).
///
/// An announcement names its audience when it can: the users who may see the appended changes (the owners, when
/// every change is of a model under an `owner` rule). A waiting download of another user is not woken by it, so
/// with per-user data one user's uploads do not make every other user's long poll read the log again. An
/// announcement without an audience (a shared model, or from a server process that did not say) wakes everyone.
///
/// An announcement of this process's own upload also names the client that uploaded it (its origin), and a waiting
/// download that names its client (`GET /v1/download?client=`) is not woken by its own client's uploads: the device
/// has those changes already, and gets them back from the log with the next change of another client or at its
/// recheck (docs/SYNC.md, "`GET /v1/download`"), instead of one long-poll answer per upload.
///
/// A waiter remembers ``generation(for:client:)`` before it reads the log, and waits for a later one, so a change
/// committed between its read and its wait still wakes it.
public final class ChangeNotifier: Sendable {
    private struct State {
        /// Every announcement so far.
        var generation: UInt64 = 0
        /// The generation of the last announcement to everyone.
        var everyone: UInt64 = 0
        /// The announcements naming each user, when later than `everyone` (older entries are dropped when an
        /// announcement to everyone passes them).
        var users: [String: UserMark] = [:]
        /// The sequence numbers announced lately, so that an upload of this process, announced directly and then
        /// by its `NOTIFY`, wakes its waiters once.
        var recent: Set<Int64> = []
        var recentOrder: [Int64] = []
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]

        func generation(for user: String?, client: String?) -> UInt64 {
            guard let user else { return generation }
            return max(everyone, users[user]?.generation(excluding: client) ?? 0)
        }
    }

    /// The announcements naming one user: the last one's generation and origin, and the last one's from another
    /// origin than that (so a waiter of client `c` skips a run of `c`'s own announcements, and only those).
    private struct UserMark {
        /// The last announcement naming the user.
        var last: UInt64
        /// The client whose upload it announced (`nil`: not known).
        var origin: String?
        /// The last announcement naming the user from another origin than `origin`'s (0: none since the entry was
        /// made, and `everyone` covers what came before).
        var beforeOrigin: UInt64 = 0

        /// The generation a waiter of `client` cares about.
        func generation(excluding client: String?) -> UInt64 {
            if let client, client == origin { return beforeOrigin }
            return last
        }

        /// Counts announcement `generation`, from `origin`.
        mutating func record(_ generation: UInt64, origin newOrigin: String?) {
            if newOrigin == nil || newOrigin != origin {
                beforeOrigin = last
                origin = newOrigin
            }
            last = generation
        }
    }

    /// A waiting download.
    private struct Waiter {
        var user: String?
        var client: String?
        var after: UInt64
        var continuation: CheckedContinuation<Void, Never>
    }

    /// How many announced sequence numbers are remembered to skip a second announcement of the same upload.
    private static let recentLimit = 4096

    private let state = Mutex(State())

    /// Creates a notifier with no waiter.
    public init() {}

    /// The number of wake-ups so far, whoever they were for.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// The generation of the last announcement `user`'s download from `client` may care about (one naming the user
    /// that did not come from `client`'s own upload, or one to everyone).
    public func generation(for user: String, client: String? = nil) -> UInt64 {
        state.withLock { $0.generation(for: user, client: client) }
    }

    /// Announces that the log holds sequence number `sequence`, for the users in `audience` (`nil`: everyone),
    /// written by an upload of client `origin` (`nil`: not known, or several); wakes the waiters it concerns (a
    /// download of `origin` itself is not one of them), unless the same sequence number was announced already (an
    /// upload of this process is announced twice: directly, then by its `NOTIFY`).
    public func announce(_ sequence: Int64, audience: Set<String>? = nil, origin: String? = nil) {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.recent.insert(sequence).inserted else { return [] }
            state.recentOrder.append(sequence)
            if state.recentOrder.count > Self.recentLimit {
                state.recent.remove(state.recentOrder.removeFirst())
            }
            return Self.advance(&state, audience: audience, origin: origin)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Wakes every waiter (after the `LISTEN` connection was lost, when announcements may have been missed).
    public func wakeAll() {
        let woken = state.withLock { Self.advance(&$0, audience: nil, origin: nil) }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once the generation `user`'s download from `client` cares about passes `seen`
    /// (``generation(for:client:)``; with no user, any announcement), or after `timeout`, or when the task is
    /// cancelled.
    public func wait(past seen: UInt64, for user: String? = nil, client: String? = nil, timeout: Duration) async {
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
                    if state.generation(for: user, client: client) > seen || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(user: user, client: client, after: seen, continuation: continuation)
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

    /// Counts an announcement to `audience` from `origin` and returns the waiters it wakes, removed.
    private static func advance(_ state: inout State, audience: Set<String>?, origin: String?)
        -> [CheckedContinuation<Void, Never>]
    {
        state.generation += 1
        if let audience {
            for user in audience {
                state.users[user, default: UserMark(last: 0)].record(state.generation, origin: origin)
            }
        } else {
            state.everyone = state.generation
            state.users = [:]
        }
        var woken: [CheckedContinuation<Void, Never>] = []
        for (id, waiter) in state.waiters
        where state.generation(for: waiter.user, client: waiter.client) > waiter.after {
            woken.append(waiter.continuation)
            state.waiters[id] = nil
        }
        return woken
    }
}

import Foundation

/// Keeps an observation alive: blocks registered with `observe` run for as long as the token lives and until
/// ``invalidate()`` is called. Keep a strong reference to it (a property of the view controller, say).
///
/// A token may be invalidated from any thread; a delivery already running on the observer's queue finishes,
/// and none starts after `invalidate()` returns on that queue.
///
/// Why `@unchecked Sendable`: its one mutable field (`stop`) is read and cleared under `lock`, and the
/// observation it names is only used by the observed database's own `commitWrite(withoutNotifying:)`, on that
/// database's thread; the notifier it stops guards its own state. `TokenSendabilityTests` invalidates one token
/// from eight threads at once while commits are delivered.
public final class NotificationToken: @unchecked Sendable {
    private let lock = NSLock()
    private var stop: (() -> Void)?
    /// The observation, for `commitWrite(withoutNotifying:)`; `nil` for a token of a failed registration.
    let observation: Observation?

    init(observation: Observation?, stop: (() -> Void)?) {
        self.observation = observation
        self.stop = stop
    }

    /// A token that observes nothing (the registration failed and its block got `.error`).
    static func inert() -> NotificationToken { NotificationToken(observation: nil, stop: nil) }

    /// Ends the observation: its block is not called again. Calling it twice does nothing.
    public func invalidate() {
        let stop = lock.withLock { () -> (() -> Void)? in
            defer { self.stop = nil }
            return self.stop
        }
        stop?()
    }

    deinit { invalidate() }
}

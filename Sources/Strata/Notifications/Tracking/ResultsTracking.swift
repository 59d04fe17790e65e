import Foundation
import Observation

/// What Swift's observation tracking of one `Results` needs, made by its first read inside tracking: its
/// registrar, and a store observation of the results that fires the registrar after each commit (of any thread
/// or process) that changes them. Held by the results' key cache, which copies of a `Results` share.
final class ResultsTracking {
    let registrar = ObservationRegistrar()
    private var token: NotificationToken?

    /// Records a read of `keyPath` (``Results/count`` or ``Results/observedElements``) of `results` for the
    /// tracking running now, and starts observing the results.
    func access<Element: Object>(_ results: Results<Element>, keyPath: KeyPath<Results<Element>, Int>) {
        registrar.access(results, keyPath: keyPath)
        guard token == nil, !results.database.isFrozen else { return }
        let registrar = registrar
        // The observed copy has a key cache of its own: this one (which owns the token) is not kept alive by it.
        let observed = results.with(results.query)
        let database = results.database
        let queue = database.confinement.queue != nil || database.confinement.isMain ? nil : ChangeStream.queue
        let block: (CollectionChange<Results<Element>>) -> Void = { change in
            guard case .update(let now, let deletions, let insertions, let modifications) = change else { return }
            if !deletions.isEmpty || !insertions.isEmpty {
                registrar.withMutation(of: now, keyPath: \.count) {}
            }
            if !deletions.isEmpty || !insertions.isEmpty || !modifications.isEmpty {
                registrar.withMutation(of: now, keyPath: \.observedElements) {}
            }
        }
        // The observation starts from what the tracked read saw (a snapshot frozen now, and the keys there), as
        // the row tracking's does: its first delivery is a queue's turn away, and a commit landing before it
        // would otherwise be taken into an `.initial` and never fire the registrar. Inside a write transaction
        // nothing can be frozen; the observation then starts at its first delivery.
        if !database.isInWriteTransaction, let snapshot = try? database.freeze(),
            let keys = try? observed.query.evaluate(in: snapshot, model: observed.model)
        {
            token = observed.observe(since: snapshot, keys: keys, on: queue, block)
        } else {
            token = observed.observe(on: queue, block)
        }
    }
}

/// Results take part in Swift's Observation: reading `count` inside `withObservationTracking` (or a SwiftUI
/// view's body) registers it, fired by commits that add or remove objects; reading the elements (iterating,
/// subscripting, `first`) registers them, fired also by commits that change a property of one of them.
extension Results: Observable {
    /// The key path Observation records for reads of the elements (always `0`: only the key path is used).
    var observedElements: Int { 0 }

    /// Records a read of `keyPath` inside observation tracking.
    @inline(never)
    func track(_ keyPath: KeyPath<Results<Element>, Int>) {
        database.confinement.check("reading Results<\(Element.self)>")
        database.observationArmed = true
        let tracking = cache.tracking ?? ResultsTracking()
        cache.tracking = tracking
        tracking.access(self, keyPath: keyPath)
    }
}

import StrataStorage

/// An observer of a ``Results``: keeps the keys it last reported and the snapshot they were read at.
final class ResultsObservation<Element: Object>: Observation {
    /// The results on the observing database, passed to the block.
    let results: Results<Element>
    private let diff: ResultsDiff
    /// What makes two observations' changes the same.
    private let identity: ResultsIdentity
    private let block: CollectionBlock<Results<Element>>
    var isActive = true
    private var baseline: Database?
    private var keys: [ObjectKey] = []
    /// The keys of the delivery before last, whose storage the next keys are written into.
    private var spare: [ObjectKey] = []

    var database: Database { results.database }

    /// An observation whose first delivery is `.initial`, or, given a `start` (a frozen snapshot of the results'
    /// database and the keys the results held there), one whose first delivery reports only what changed since.
    init(
        results: Results<Element>, keyPaths: [String]?, start: (snapshot: Database, keys: [ObjectKey])? = nil,
        block: @escaping (CollectionChange<Results<Element>>) -> Void
    ) throws {
        self.results = results
        if let start {
            baseline = start.snapshot
            keys = start.keys
        }
        self.block = CollectionBlock(block)
        let watched = try WatchedProperties(model: results.model, keyPaths: keyPaths)
        diff = ResultsDiff(query: results.query, model: results.model, watched: watched)
        identity = ResultsIdentity(query: results.query, model: results.model, watched: watched)
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard !block.hasFailed else { return }
        do {
            guard let baseline else {
                // The first delivery is the initial state; a commit skipped before it changes nothing.
                guard notify else { return }
                keys = try results.query.evaluate(in: delivery.snapshot, model: results.model)
                self.baseline = delivery.snapshot
                shareKeys(delivery)
                block.initial(results)
                return
            }
            guard baseline.version != delivery.version else { return }
            let shared = SharedResultsChangeKey(identity: identity, baseline: baseline.version)
            let (newKeys, changes) = try delivery.resultsChanges[shared]
                ?? diff.changes(from: keys, baseline: baseline, delivery: delivery, spare: &spare)
            delivery.resultsChanges[shared] = (newKeys, changes)
            spare = keys
            keys = newKeys
            self.baseline = delivery.snapshot
            guard notify, !changes.isEmpty else { return }
            shareKeys(delivery)
            block.update(results, changes)
        } catch {
            fail(database.namingFile(error))
        }
    }

    /// Hands the computed keys to the results (and every copy of them), so reading them does not run the query
    /// again, when the live database reads the delivered version.
    private func shareKeys(_ delivery: Delivery) {
        let live = delivery.database
        guard live === results.database, live.version == delivery.version, !live.isInWriteTransaction else { return }
        results.cache.seed(keys, stamp: live.changeStamp)
    }

    func fail(_ error: Error) {
        block.fail(error)
    }
}

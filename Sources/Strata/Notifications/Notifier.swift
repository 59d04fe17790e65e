import Foundation
import StrataStorage

/// The observers of one database, and the deliveries to them on the database's queue.
///
/// The store's ``CommitWatcher`` calls ``scheduleDelivery()`` from its thread after each commit; at most one
/// delivery is pending at a time, so commits that arrive while the receiver lags coalesce into one. A delivery
/// moves the database to the newest version (as Realm does when it delivers) and asks each observation for its
/// change since the version it last reported.
final class Notifier: @unchecked Sendable {
    /// The queue deliveries run on: the database's own queue, or the main queue for a main-thread database.
    let queue: DispatchQueue
    let store: Store
    /// Guards `observations`, `pending` and each observation's `isActive`.
    private let lock = NSLock()
    /// Only read on `queue` (the database's confinement), where the database may be used.
    private weak var database: Database?
    private var observations: [Observation] = []
    private var pending = false

    private init(database: Database, queue: DispatchQueue) {
        self.database = database
        self.queue = queue
        self.store = database.store
    }

    private static let creation = NSLock()

    /// The notifier of `database`, created on first use; `nil` when the database has no queue to deliver on
    /// (confined to a thread other than the main thread).
    static func of(_ database: Database) -> Notifier? {
        creation.withLock {
            if let existing = database.notifier { return existing }
            let queue: DispatchQueue
            if let own = database.confinement.queue {
                queue = own
            } else if database.confinement.isMain {
                queue = .main
            } else {
                return nil
            }
            let notifier = Notifier(database: database, queue: queue)
            database.notifier = notifier
            return notifier
        }
    }

    /// Starts delivering to `observation`: its block gets the initial state on the next delivery.
    func add(_ observation: Observation) {
        lock.withLock { observations.append(observation) }
        CommitWatcher.watch(self)
        scheduleDelivery()
    }

    /// Stops delivering to `observation` (its token was invalidated or released).
    func remove(_ observation: Observation) {
        let isEmpty = lock.withLock { () -> Bool in
            observation.isActive = false
            observations.removeAll { $0 === observation }
            return observations.isEmpty
        }
        if isEmpty { CommitWatcher.unwatch(self) }
    }

    /// Whether `observation` is still registered (its block may be called).
    func isActive(_ observation: Observation) -> Bool {
        lock.withLock { observation.isActive }
    }

    /// Queues a delivery on the database's queue unless one is pending already.
    func scheduleDelivery() {
        let schedule = lock.withLock { () -> Bool in
            guard !pending, !observations.isEmpty else { return false }
            pending = true
            return true
        }
        guard schedule else { return }
        queue.async { [weak self] in self?.deliver() }
    }

    /// Delivers the newest version to every observation. Runs on the database's queue.
    func deliver() {
        let current = lock.withLock { () -> [Observation] in
            pending = false
            return observations
        }
        // Inside a write the database shows uncommitted changes: its commit schedules the next delivery.
        guard let database, !database.isInWriteTransaction, !current.isEmpty else { return }
        database.moveToNewestVersion()
        let delivery: Delivery
        do {
            delivery = Delivery(database: database, snapshot: try database.freeze())
        } catch {
            for observation in current where isActive(observation) { observation.fail(database.namingFile(error)) }
            return
        }
        for observation in current where isActive(observation) {
            observation.deliver(delivery, notify: true)
        }
    }

    /// After a commit made `withoutNotifying:` these observations: moves them to the committed version
    /// without calling their blocks. Runs on the database's queue, right after the commit.
    func skip(_ skipped: [Observation], database: Database) throws {
        let delivery = Delivery(database: database, snapshot: try database.freeze())
        for observation in skipped where isActive(observation) {
            observation.deliver(delivery, notify: false)
        }
    }
}

extension Database {
    /// Moves to the newest committed version, as a delivery does, unless it reads it already.
    func moveToNewestVersion() {
        guard writeTransaction == nil, !isFrozen else { return }
        if let readTransaction, readTransaction.version == store.latestCommittedVersion { return }
        releaseReadVersion()
    }
}

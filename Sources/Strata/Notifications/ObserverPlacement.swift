import Foundation
import StrataStorage

/// Where an observation lives: the database whose queue runs its block, and that database's notifier.
///
/// `observe(on: queue)` delivers on `queue`, with collections and objects of a database confined to `queue`
/// (one per store and queue, reused). Without a queue, a database confined to a queue delivers on it, and one
/// opened on the main thread on the main queue; a database confined to another thread has nothing to deliver
/// on, and the observation fails with an error that says to pass `on:`.
enum ObserverPlacement {
    /// The database and notifier for observing something of `database`, delivering on `queue` if given.
    ///
    /// - Throws: `StrataError.invalidArgument` for a frozen database, inside a write transaction, or without a
    ///   queue from a thread other than the main thread.
    static func place(_ database: Database, on queue: DispatchQueue?) throws -> (database: Database, notifier: Notifier) {
        guard !database.isFrozen else {
            throw StrataError.invalidArgument(
                "observe on a frozen snapshot: it never changes. Observe the live collection or object instead")
        }
        let target: Database
        let isOwnQueue = database.confinement.queue === queue
            || (queue === DispatchQueue.main && database.confinement.isMain)
        if let queue, !isOwnQueue {
            target = try QueueDatabases.shared.database(like: database, on: queue)
        } else {
            target = database
        }
        guard let notifier = Notifier.of(target) else {
            throw StrataError.invalidArgument(
                "observe without `on:` from a thread other than the main thread: nothing runs this thread's "
                    + "deliveries. Pass a serial queue (`observe(on: queue) { … }`), or open the database with "
                    + "Database(configuration:queue:)")
        }
        return (target, notifier)
    }
}

/// The databases observers on a queue use: one per store and serial queue, confined to the queue.
final class QueueDatabases: @unchecked Sendable {
    static let shared = QueueDatabases()
    private let lock = NSLock()

    private struct Key: Hashable {
        var store: ObjectIdentifier
        var queue: ObjectIdentifier
    }

    private final class WeakDatabase {
        weak var database: Database?
        init(_ database: Database) { self.database = database }
    }

    private var databases: [Key: WeakDatabase] = [:]

    /// The database of `source`'s store confined to `queue`, opened with the same configuration on first use.
    func database(like source: Database, on queue: DispatchQueue) throws -> Database {
        try lock.withLock {
            let key = Key(store: ObjectIdentifier(source.store), queue: ObjectIdentifier(QueueMark.mark(queue)))
            if let existing = databases[key]?.database { return existing }
            let database = try Database(configuration: source.configuration, queue: queue)
            databases = databases.filter { $0.value.database != nil }
            databases[key] = WeakDatabase(database)
            return database
        }
    }
}

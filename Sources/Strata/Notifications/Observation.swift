import Foundation
import StrataStorage

/// One registered observer: a block, what it watches, and the version it last reported.
///
/// A notifier calls ``deliver(_:notify:)`` on its database's queue, one observation after another. Each
/// observation computes its own change from the snapshot it last reported to the delivery's snapshot, so
/// observers added at different times, and commits that arrive between two deliveries, are all handled by the
/// same code: several commits coalesce into one change.
protocol Observation: AnyObject {
    /// Computes the change since the last reported version and, when `notify` and something watched changed,
    /// calls the block. With `notify == false` (a commit made `withoutNotifying:` this observer), only moves the
    /// baseline.
    func deliver(_ delivery: Delivery, notify: Bool)
    /// Tells the block that the observation cannot continue.
    func fail(_ error: Error)
    /// Whether the token is still valid (read and written under the notifier's lock).
    var isActive: Bool { get set }
    /// The database the observation delivers for.
    var database: Database { get }
}

/// One run of deliveries on a database's queue: the newest version as a frozen snapshot, and the table changes
/// computed so far, shared by every observation that started from the same version.
final class Delivery {
    /// The live database the blocks receive collections of; it reads ``snapshot``'s version.
    let database: Database
    /// A frozen snapshot of the version being delivered (what changes are computed against).
    let snapshot: Database
    private var tableChanges: [TableChangesKey: TableChanges] = [:]
    /// Results changes computed in this delivery, by query identity (query and watched properties) and baseline
    /// version: observers of equal queries from the same version get the same change.
    var resultsChanges: [SharedResultsChangeKey: (keys: [ObjectKey], changes: IndexChanges)] = [:]
    /// The objects of a followed link's target that count as changed because of changes inside their embedded
    /// objects (``WatchedProperties/changedTargets(of:_:since:)``), by baseline version and link: computed once
    /// per delivery, not once per object tested.
    var changedTargets: [ChangedTargetsKey: Set<ObjectKey>] = [:]

    struct ChangedTargetsKey: Hashable {
        var baseline: UInt64
        var link: WatchedProperties.Link
    }

    private struct TableChangesKey: Hashable {
        var baseline: UInt64
        var table: TableKey
    }

    init(database: Database, snapshot: Database) {
        self.database = database
        self.snapshot = snapshot
    }

    /// The version being delivered.
    var version: UInt64 { snapshot.version }

    /// What changed in `table` from `baseline` to the delivered version, computed once per baseline version.
    func changes(of table: TableKey, since baseline: Database) throws -> TableChanges {
        let key = TableChangesKey(baseline: baseline.version, table: table)
        if let known = tableChanges[key] { return known }
        let changes: TableChanges
        if baseline.version == snapshot.version {
            changes = TableChanges()
        } else if let newer = try snapshot.catalog().table(table) {
            changes = try newer.changes(since: try baseline.catalog().table(table))
        } else {
            // The table is gone (a migration removed it): every object it had is deleted.
            let older = try baseline.catalog().table(table)
            changes = TableChanges(deletions: try older?.keys() ?? [])
        }
        tableChanges[key] = changes
        return changes
    }
}

/// Indices a collection change reports, each ascending.
struct IndexChanges: Equatable {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// The same indices, each list sorted.
    func sorted() -> IndexChanges {
        IndexChanges(deletions: deletions.sorted(), insertions: insertions.sorted(), modifications: modifications.sorted())
    }
}

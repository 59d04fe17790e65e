import Foundation
import Observation

/// What Swift's observation tracking of one managed object needs, made by its first read inside tracking: the
/// object's registrar, and one store observation per property read under tracking, which tells the registrar
/// when a commit (of any thread or process) changes that property or deletes the object.
///
/// The registrar's subject is the object's ``ManagedRow`` and the key path names the column
/// (`\ManagedRow.[trackedColumn: 2]`): generated models read through their row, so no generated code is needed,
/// and two reads of one property record equal key paths.
final class RowTracking {
    let registrar = ObservationRegistrar()
    /// The store observations, by column; ended with the object (its row owns this).
    private var tokens: [Int: NotificationToken] = [:]

    /// Records a read of `column` of `row` for the tracking running now, and starts watching the column.
    func access(_ row: ManagedRow, column: Int) {
        let keyPath = \ManagedRow.[trackedColumn: column]
        registrar.access(row, keyPath: keyPath)
        guard tokens[column] == nil else { return }
        tokens[column] = watch(row, column: column, keyPath: keyPath)
    }

    /// A store observation of `column` of `row`'s object that fires the registrar's change of `keyPath`.
    private func watch(
        _ row: ManagedRow, column: Int, keyPath: KeyPath<ManagedRow, Int>
    ) -> NotificationToken? {
        let database = row.database
        guard !database.isFrozen else { return nil }
        let registrar = registrar
        // The row owns this, which owns the token: the block holds the row weakly (it is only the subject).
        let subject = WeakRow(row)
        let baseline = database.isInWriteTransaction ? nil : try? database.freeze()
        let names = [row.model.propertyName(column)]
        // An observation needs a queue: the database's own (main or serial queue) moves it to the new version as
        // it delivers; a task's or an actor's database is watched from the shared queue of the `changes` streams.
        let queue = database.confinement.queue != nil || database.confinement.isMain ? nil : ChangeStream.queue
        return ObservationRegistration.register(database, on: queue, report: { _ in }) { target in
            try ObjectObservation<ObjectBase>(row: row, on: target, baseline: baseline, keyPaths: names) { change in
                switch change {
                case .change, .deleted:
                    guard let row = subject.row else { return }
                    registrar.withMutation(of: row, keyPath: keyPath) {}
                case .error:
                    return
                }
            }
        }
    }
}

/// A managed row held without being retained (the subject a delivery names to the registrar).
private final class WeakRow {
    weak var row: ManagedRow?
    init(_ row: ManagedRow) { self.row = row }
}

/// Managed rows are the subjects of their objects' observation tracking.
extension ManagedRow: Observable {
    /// The column itself: only its key path is used, to name the column to the registrar.
    subscript(trackedColumn column: Int) -> Int { column }
}

/// Generated models take part in Swift's Observation: reading a property of a managed object inside
/// `withObservationTracking` (or a SwiftUI view's body) registers it, and a commit of any thread or process that
/// changes it fires the tracking (see docs/CONCURRENCY.md).
extension ObjectBase: Observable {}

import Foundation

/// Receives a ``ResultsController``'s changes in `NSFetchedResultsController`'s order: `willChangeResults()`,
/// then every section change (deletions, then insertions), then every object change (deletions, insertions,
/// moves, updates), then `didChangeResults()`.
///
/// Old index paths (`.delete`, the source of `.move`, `.update`) point into the sections as they were before the
/// change, new ones (`.insert`, the destination of `.move`, `.update`) into the sections after it, which is what
/// `UITableView.performBatchUpdates` expects:
///
/// ```swift
/// func didChangeObject(_ task: TaskRow, at indexPath: IndexPath?, for change: ResultsChangeType, newIndexPath: IndexPath?) {
///     switch change {
///     case .insert: tableView.insertRows(at: [newIndexPath!], with: .automatic)
///     case .delete: tableView.deleteRows(at: [indexPath!], with: .automatic)
///     case .move: tableView.moveRow(at: indexPath!, to: newIndexPath!)
///     case .update: tableView.reloadRows(at: [indexPath!], with: .automatic)
///     }
/// }
/// ```
public protocol ResultsControllerDelegate<Mapped>: AnyObject {
    /// The values the controller hands out (its `Mapped` type).
    associatedtype Mapped

    /// A batch of changes starts.
    func willChangeResults()
    /// A section appeared (`.insert`, at its new index) or went away (`.delete`, at its old index).
    func didChangeSection(_ section: ResultsSection<Mapped>, at index: Int, for change: ResultsChangeType)
    /// An object was inserted, deleted, moved or updated: `indexPath` is its old place (nil for `.insert`),
    /// `newIndexPath` its new one (nil for `.delete`); `object` is the new value (the old one for `.delete`).
    func didChangeObject(_ object: Mapped, at indexPath: IndexPath?, for change: ResultsChangeType, newIndexPath: IndexPath?)
    /// The batch of changes is over: the controller's sections show the new state.
    func didChangeResults()
}

extension ResultsControllerDelegate {
    /// Does nothing by default.
    public func willChangeResults() {}
    /// Does nothing by default.
    public func didChangeSection(_ section: ResultsSection<Mapped>, at index: Int, for change: ResultsChangeType) {}
    /// Does nothing by default.
    public func didChangeResults() {}
}

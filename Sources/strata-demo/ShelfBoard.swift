import Foundation
import Strata

/// The shelf as a table view would show it: the books with copies on the shelf, one section per author, sorted
/// by title, kept current by a `ResultsController` on its own queue. The demo prints each batch of delegate
/// calls as a table view would receive them.
final class ShelfBoard: ResultsControllerDelegate {
    typealias Mapped = String

    private let queue = DispatchQueue(label: "strata-demo.shelf-board")
    private var database: Database?
    private var controller: ResultsController<Book, String>?
    private let delivered = DispatchSemaphore(value: 0)
    /// The newest version whose delivery the board has processed (read and written on `queue`).
    private var deliveredVersion: UInt64 = 0
    private var databaseToken: NotificationToken?
    /// What the delegate was told since the last `printChanges()`, one line per call.
    private var told: [String] = []

    /// Opens the board's database on its queue and fetches the shelf.
    init(configuration: Configuration) throws {
        try queue.sync {
            let database = try Database(configuration: configuration, queue: queue)
            let request = ResultsRequest(
                Book.self, predicate: "copies > 0", sortDescriptors: ["writer.name", "title"])
            let controller = ResultsController(
                request: request, in: database, sectionKeyPath: "writer.name",
                mapper: { "\($0.title) (\($0.copies) on the shelf)" })
            controller.delegate = self
            try controller.performFetch()
            self.database = database
            self.controller = controller
            deliveredVersion = database.version
            // Called after each delivery, once the controller has had its share of it: the version the board
            // is current with. (`database.version` alone would not do: between deliveries a database that
            // holds no read names the newest commit, which the controller may not have seen yet.)
            databaseToken = database.observe { [weak self] _, database in
                self?.deliveredVersion = database.version
                self?.delivered.signal()
            }
        }
    }

    /// Prints the sections as they are now.
    func printShelf() {
        queue.sync {
            print("Shelf board (ResultsController, sectioned by author):")
            for section in controller?.sections ?? [] {
                let name = section.name.isEmpty ? "(no author)" : section.name
                print("  \(name): \(section.objects.joined(separator: "; "))")
            }
        }
    }

    /// Waits until the board has caught up with `version` (a few milliseconds after the commit; at most 5 s).
    @discardableResult
    func waitUntilCurrent(with version: UInt64) -> Bool {
        let deadline = DispatchTime.now() + 5
        while queue.sync(execute: { database != nil && deliveredVersion < version }) {
            guard DispatchTime.now() < deadline else { return false }
            _ = delivered.wait(timeout: .now() + 0.01)
        }
        return true
    }

    /// Lets go of the controller and its database on their queue.
    func close() {
        queue.sync {
            databaseToken?.invalidate()
            databaseToken = nil
            controller = nil
            database = nil
        }
    }

    /// Prints the delegate calls received since the last time, batch by batch.
    func printChanges() {
        let lines = queue.sync {
            defer { told = [] }
            return told
        }
        print(lines.isEmpty ? "Shelf board: no change to show." : lines.joined(separator: "\n"))
    }

    func willChangeResults() {
        told.append("Shelf board was told (one batch):")
    }

    func didChangeSection(_ section: ResultsSection<String>, at index: Int, for change: ResultsChangeType) {
        told.append("  section \(change) at \(index): \(section.name.isEmpty ? "(no author)" : section.name)")
    }

    func didChangeObject(_ object: String, at indexPath: IndexPath?, for change: ResultsChangeType, newIndexPath: IndexPath?) {
        let from = indexPath.map { " from [\($0.section), \($0.row)]" } ?? ""
        let to = newIndexPath.map { " to [\($0.section), \($0.row)]" } ?? ""
        told.append("  \(change)\(from)\(to): \(object)")
    }
}

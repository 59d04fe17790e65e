import Foundation
@testable import Strata

/// What a table view holds: named sections of rows. It applies a controller's delegate calls the way
/// `UITableView.performBatchUpdates` does (deletions and move sources against the old sections, insertions and move
/// destinations against the new ones, reloads in place), so tests can check that the calls lead exactly to the
/// controller's new sections.
final class SectionedTableModel<Row>: ResultsControllerDelegate {
    typealias Mapped = Row

    private(set) var sections: [(name: String, rows: [Row])]
    private(set) var callOrder: [String] = []
    private var sectionDeletions: [Int] = []
    private var sectionInsertions: [(Int, ResultsSection<Row>)] = []
    private var rowRemovals: [IndexPath] = []
    private var rowInsertions: [(IndexPath, Row)] = []
    private var reloads: [(IndexPath, Row)] = []
    private(set) var batches = 0
    /// The calls of the last batch, as text (`"insert -> [0, 1] row"`, `"section delete 1 name"`).
    private(set) var lastBatch: [String] = []
    private var currentBatch: [String] = []
    private let describe: (Row) -> String
    /// The problems found while applying calls (a path out of range, a call out of order).
    private(set) var problems: [String] = []

    init(sections: [ResultsSection<Row>], describe: @escaping (Row) -> String = { "\($0)" }) {
        self.sections = sections.map { ($0.name, $0.objects) }
        self.describe = describe
    }

    func willChangeResults() {
        callOrder.append("will")
        currentBatch = []
    }

    func didChangeSection(_ section: ResultsSection<Row>, at index: Int, for change: ResultsChangeType) {
        callOrder.append("section")
        currentBatch.append("section \(change) \(index) \(section.name)")
        switch change {
        case .delete: sectionDeletions.append(index)
        case .insert: sectionInsertions.append((index, section))
        case .move, .update: problems.append("section change \(change) is never reported")
        }
    }

    func didChangeObject(_ object: Row, at indexPath: IndexPath?, for change: ResultsChangeType, newIndexPath: IndexPath?) {
        callOrder.append("object")
        currentBatch.append(
            "\(change) \(indexPath.map { "\(Array($0)) " } ?? "")->\(newIndexPath.map { " \(Array($0))" } ?? "") \(describe(object))")
        switch change {
        case .delete:
            guard let indexPath, newIndexPath == nil else { return problems.append("delete needs only an old path") }
            rowRemovals.append(indexPath)
        case .insert:
            guard let newIndexPath, indexPath == nil else { return problems.append("insert needs only a new path") }
            rowInsertions.append((newIndexPath, object))
        case .move:
            guard let indexPath, let newIndexPath else { return problems.append("move needs both paths") }
            rowRemovals.append(indexPath)
            rowInsertions.append((newIndexPath, object))
        case .update:
            guard let indexPath, let newIndexPath else { return problems.append("update needs both paths") }
            guard indexPath.section < sections.count, indexPath.row < sections[indexPath.section].rows.count else {
                return problems.append("update of \(indexPath) is out of range")
            }
            reloads.append((newIndexPath, object))
        }
    }

    func didChangeResults() {
        callOrder.append("did")
        batches += 1
        lastBatch = currentBatch
        // Rows out first (against the old sections), then whole sections.
        var removed = Set<IndexPath>()
        for path in rowRemovals where !removed.insert(path).inserted { problems.append("\(path) removed twice") }
        for path in removed where path.section >= sections.count || path.row >= sections[path.section].rows.count {
            problems.append("removal of \(path) is out of range")
        }
        var remaining: [(name: String, rows: [Row])] = sections.enumerated().map { section, content in
            (content.name, content.rows.enumerated().filter { !removed.contains(IndexPath(indexes: [section, $0.offset])) }.map(\.element))
        }
        for index in Set(sectionDeletions).sorted(by: >) {
            guard index < remaining.count else { problems.append("section deletion \(index) out of range"); continue }
            // Like NSFetchedResultsController, the controller reports each row of a vanishing section as deleted.
            if !remaining[index].rows.isEmpty { problems.append("section \(index) deleted with rows left in it") }
            remaining.remove(at: index)
        }
        for (index, section) in sectionInsertions.sorted(by: { $0.0 < $1.0 }) {
            guard index <= remaining.count else { problems.append("section insertion \(index) out of range"); continue }
            remaining.insert((section.name, []), at: index)
        }
        for (path, row) in rowInsertions.sorted(by: { $0.0 < $1.0 }) {
            guard path.section < remaining.count, path.row <= remaining[path.section].rows.count else {
                problems.append("insertion at \(path) out of range")
                continue
            }
            remaining[path.section].rows.insert(row, at: path.row)
        }
        for (path, row) in reloads {
            guard path.section < remaining.count, path.row < remaining[path.section].rows.count else {
                problems.append("reload at \(path) out of range")
                continue
            }
            remaining[path.section].rows[path.row] = row
        }
        sections = remaining
        sectionDeletions = []
        sectionInsertions = []
        rowRemovals = []
        rowInsertions = []
        reloads = []
    }
}

import Foundation
import StrataStorage

// STAND-IN until branch `changes` lands in StrataStorage (Table.changes(since:), Store.waitForCommit(after:timeout:)).
// Delete this file after merging it. It is correct but not fast: it compares every row of a table.

/// What changed in one table between two versions.
struct TableChanges {
    /// Keys present now and not before, ascending.
    var insertions: [ObjectKey] = []
    /// Keys present before and not now, ascending.
    var deletions: [ObjectKey] = []
    /// Keys present in both whose columns differ, with the columns that differ.
    var modifications: [ObjectKey: Set<ColumnKey>] = [:]

    var isEmpty: Bool { insertions.isEmpty && deletions.isEmpty && modifications.isEmpty }
}

extension Table {
    /// What changed from `older` (the same table in an older version; `nil` when it did not exist) to this table.
    func changes(since older: Table?) throws -> TableChanges {
        var changes = TableChanges()
        let newKeys = try keys()
        guard let older else {
            changes.insertions = newKeys
            return changes
        }
        let oldKeys = try older.keys()
        var i = 0
        var j = 0
        let columnKeys = columns.map(\.key)
        while i < oldKeys.count || j < newKeys.count {
            if j == newKeys.count || (i < oldKeys.count && oldKeys[i] < newKeys[j]) {
                changes.deletions.append(oldKeys[i])
                i += 1
            } else if i == oldKeys.count || newKeys[j] < oldKeys[i] {
                changes.insertions.append(newKeys[j])
                j += 1
            } else {
                let key = newKeys[j]
                var changed = Set<ColumnKey>()
                for column in columnKeys where older.column(column) != nil {
                    if try older.value(key, column: column) != value(key, column: column) { changed.insert(column) }
                }
                if !changed.isEmpty { changes.modifications[key] = changed }
                i += 1
                j += 1
            }
        }
        return changes
    }
}

/// Wakes the stand-in's waiters when this process commits.
final class CommitSignal: @unchecked Sendable {
    static let shared = CommitSignal()
    private let condition = NSCondition()
    private var generation: UInt64 = 0

    func signal() {
        condition.lock()
        generation &+= 1
        condition.broadcast()
        condition.unlock()
    }

    func wait(seconds: Double) {
        condition.lock()
        let start = generation
        let deadline = Date(timeIntervalSinceNow: seconds)
        while generation == start, condition.wait(until: deadline) {}
        condition.unlock()
    }
}

extension Store {
    /// The newest committed version once it is past `version`, or the current one after `timeout` seconds.
    func waitForCommit(after version: UInt64, timeout: Double) -> UInt64 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let latest = latestCommittedVersion
            if latest > version || Date() >= deadline { return latest }
            // Commits of this process signal at once; other processes' are seen by polling.
            CommitSignal.shared.wait(seconds: 0.005)
        }
    }
}

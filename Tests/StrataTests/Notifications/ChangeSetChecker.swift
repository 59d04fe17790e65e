import Foundation

/// Checks the change sets an observer receives against the collection's contents: applying each update to the
/// previous contents (deletions descending against the old, then insertions ascending against the new) must
/// give the new contents, and modifications must be exactly the objects that stayed in place and changed.
final class ChangeSetChecker: @unchecked Sendable {
    /// One collection's contents: identities in order, and a signature of what the observer watches per identity.
    struct Contents {
        var ids: [Int64]
        var signatures: [Int64: String]
    }

    let name: String
    private(set) var failures: [String] = []
    private(set) var updates = 0
    private var previous: Contents?

    init(name: String) {
        self.name = name
    }

    var hasInitial: Bool { previous != nil }

    func initial(_ contents: Contents) {
        if previous != nil { failures.append("\(name): a second .initial") }
        previous = contents
    }

    func error(_ error: Error) {
        failures.append("\(name): .error(\(error))")
    }

    func update(_ current: Contents, deletions: [Int], insertions: [Int], modifications: [Int]) {
        guard let old = previous else { return failures.append("\(name): .update before .initial") }
        updates += 1
        previous = current
        if deletions.isEmpty && insertions.isEmpty && modifications.isEmpty {
            failures.append("\(name): an empty update")
        }
        guard isAscending(deletions, below: old.ids.count), isAscending(insertions, below: current.ids.count),
            isAscending(modifications, below: current.ids.count)
        else {
            return failures.append(
                "\(name): indices out of order or range: -\(deletions) +\(insertions) ~\(modifications) for "
                    + "\(old.ids.count) → \(current.ids.count)")
        }
        var applied = old.ids
        for index in deletions.reversed() { applied.remove(at: index) }
        for index in insertions { applied.insert(current.ids[index], at: index) }
        guard applied == current.ids else {
            return failures.append(
                "\(name): applying -\(deletions) +\(insertions) to \(old.ids) gives \(applied), not \(current.ids)")
        }
        let inserted = Set(insertions)
        let modified = Set(modifications)
        for index in modifications where inserted.contains(index) {
            failures.append("\(name): index \(index) both inserted and modified")
        }
        for (index, id) in current.ids.enumerated() where !inserted.contains(index) {
            let changed = old.signatures[id] != current.signatures[id]
            if changed && !modified.contains(index) {
                failures.append(
                    "\(name): \(id) at \(index) changed (\(old.signatures[id] ?? "-") → \(current.signatures[id] ?? "-")) "
                        + "but is not among the modifications \(modifications)")
            }
            if !changed && modified.contains(index) {
                failures.append("\(name): \(id) at \(index) is reported modified but did not change")
            }
        }
    }

    private func isAscending(_ indices: [Int], below count: Int) -> Bool {
        zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 } && indices.allSatisfy { $0 >= 0 && $0 < count }
    }
}

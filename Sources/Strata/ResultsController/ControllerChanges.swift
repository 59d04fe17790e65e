import Foundation

/// The delegate calls that take a controller from one snapshot to the next, in `NSFetchedResultsController`'s
/// order: section deletions (descending), section insertions (ascending), then object deletions (old paths,
/// descending), insertions (new paths, ascending), moves and updates.
struct ControllerChanges<Mapped> {
    struct SectionChange {
        let section: ResultsSection<Mapped>
        let index: Int
        let type: ResultsChangeType
    }

    struct ObjectChange {
        let object: Mapped
        let oldPath: IndexPath?
        let type: ResultsChangeType
        let newPath: IndexPath?
    }

    private(set) var sections: [SectionChange] = []
    private(set) var objects: [ObjectChange] = []

    var isEmpty: Bool { sections.isEmpty && objects.isEmpty }

    init<Key>(from old: ControllerSnapshot<Key, Mapped>, to transition: ControllerTransition<Key, Mapped>) {
        let new = transition.snapshot
        let oldNames = Set(old.sections.map(\.name))
        let newNames = Set(new.sections.map(\.name))
        for (index, section) in old.sections.enumerated().reversed() where !newNames.contains(section.name) {
            sections.append(SectionChange(section: section, index: index, type: .delete))
        }
        for (index, section) in new.sections.enumerated() where !oldNames.contains(section.name) {
            sections.append(SectionChange(section: section, index: index, type: .insert))
        }

        // Objects kept by the filter before and after: the ones that stay in place are the longest run whose old
        // order is kept (and whose section did not change); every other one moved.
        var kept: [(new: Int, old: Int)] = []
        var keptOld = [Bool](repeating: false, count: old.entries.count)
        for (index, origin) in transition.origins.enumerated() {
            guard let origin, new.paths[index] != nil, old.paths[origin] != nil else { continue }
            kept.append((index, origin))
            keptOld[origin] = true
        }
        let staying = Self.inPlace(kept, old: old, new: new, refreshed: transition.refreshed)

        var deletions: [ObjectChange] = []
        for (index, path) in old.paths.enumerated() {
            guard let path, !keptOld[index], let value = old.entries[index].value else { continue }
            deletions.append(ObjectChange(object: value, oldPath: path, type: .delete, newPath: nil))
        }
        var insertions: [ObjectChange] = []
        var moves: [ObjectChange] = []
        var updates: [ObjectChange] = []
        var keptNew = Set(kept.map(\.new))
        for (position, pair) in kept.enumerated() {
            guard let value = new.entries[pair.new].value else { continue }
            let change = { (type: ResultsChangeType) in
                ObjectChange(object: value, oldPath: old.paths[pair.old], type: type, newPath: new.paths[pair.new])
            }
            if !staying[position] {
                moves.append(change(.move))
            } else if transition.refreshed.contains(pair.new) {
                updates.append(change(.update))
            }
        }
        for (index, path) in new.paths.enumerated() {
            guard let path, keptNew.remove(index) == nil, let value = new.entries[index].value else { continue }
            insertions.append(ObjectChange(object: value, oldPath: nil, type: .insert, newPath: path))
        }
        objects = deletions.reversed() + insertions + moves + updates
    }

    /// For each kept pair, whether it stays in place: its section is the same and it belongs to a longest
    /// subsequence of pairs whose old positions increase, made preferably of the objects that did not change.
    private static func inPlace<Key>(
        _ kept: [(new: Int, old: Int)], old: ControllerSnapshot<Key, Mapped>, new: ControllerSnapshot<Key, Mapped>,
        refreshed: Set<Int>
    ) -> [Bool] {
        let candidates = kept.indices.filter {
            old.entries[kept[$0].old].sectionName == new.entries[kept[$0].new].sectionName
        }
        let members = LongestIncreasingRun.members(
            of: candidates.map { kept[$0].old }, preferringToMove: candidates.map { refreshed.contains(kept[$0].new) })
        var staying = [Bool](repeating: false, count: kept.count)
        for (position, isMember) in members.enumerated() where isMember { staying[candidates[position]] = true }
        return staying
    }

    /// Tells `delegate` every change, between `willChangeResults()` and `didChangeResults()`.
    func deliver<Delegate: ResultsControllerDelegate>(to delegate: Delegate) where Delegate.Mapped == Mapped {
        delegate.willChangeResults()
        for change in sections {
            delegate.didChangeSection(change.section, at: change.index, for: change.type)
        }
        for change in objects {
            delegate.didChangeObject(change.object, at: change.oldPath, for: change.type, newIndexPath: change.newPath)
        }
        delegate.didChangeResults()
    }
}

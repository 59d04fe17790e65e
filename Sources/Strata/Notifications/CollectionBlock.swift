/// The block of one collection observer, and whether it has failed: after `.error` it is never called again.
final class CollectionBlock<Collection> {
    private let block: (CollectionChange<Collection>) -> Void
    /// Whether `.error` was delivered (the observation has ended).
    private(set) var hasFailed = false

    init(_ block: @escaping (CollectionChange<Collection>) -> Void) {
        self.block = block
    }

    /// Calls the block with the collection's first state.
    func initial(_ collection: Collection) {
        block(.initial(collection))
    }

    /// Calls the block with the collection after a change and the indices that changed.
    func update(_ collection: Collection, _ changes: IndexChanges) {
        block(.update(
            collection, deletions: changes.deletions, insertions: changes.insertions,
            modifications: changes.modifications))
    }

    /// Calls the block with `error`, once; later calls do nothing.
    func fail(_ error: Error) {
        guard !hasFailed else { return }
        hasFailed = true
        block(.error(error))
    }
}

import StrataStorage

/// What one commit changed for a collection held in one object's column (a list, set or map): what its
/// observations ask before they diff the old elements against the new.
struct CollectionColumnChanges {
    /// Whether the column itself changed (or its object was deleted): the elements must be read again.
    let columnChanged: Bool
    /// The changes of the elements' model, when the observation watches properties of linked elements.
    let elementChanges: TableChanges

    /// The changes `delivery` brings since `baseline` to column `column` of object `key` of `owner` and to the
    /// `watched` elements, or `nil` when nothing the collection shows changed.
    static func of(
        column: Int, key: ObjectKey, owner: ModelBinding, watched: WatchedProperties?, delivery: Delivery,
        since baseline: Database
    ) throws -> CollectionColumnChanges? {
        let ownerChanges = try delivery.changes(of: owner.tableKey, since: baseline)
        let columnChanged = ownerChanges.deletions.contains(key)
            || ownerChanges.modifications[key]?.contains(owner.columns[column]) == true
        var elementChanges = TableChanges()
        if let watched { elementChanges = try delivery.changes(of: watched.model.tableKey, since: baseline) }
        let linkedChanged = try watched?.linkedTablesChanged(delivery, since: baseline) ?? false
        guard columnChanged || !elementChanges.modifications.isEmpty || linkedChanged else { return nil }
        return CollectionColumnChanges(columnChanged: columnChanged, elementChanges: elementChanges)
    }
}

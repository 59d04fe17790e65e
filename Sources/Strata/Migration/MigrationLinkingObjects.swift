import StrataStorage

/// The linking objects of a ``MigrationRow``: the objects of `source` whose link or list points to it, computed
/// from the store's backlinks when asked (a migration changes them rarely, so nothing is cached).
final class MigrationLinkingObjects<Element: Object>: ManagedLinkingObjectsAccessor {
    let target: MigrationRow
    let source: VersionModel
    let sourceColumn: Int

    init(target: MigrationRow, source: VersionModel, sourceColumn: Int) {
        self.target = target
        self.source = source
        self.sourceColumn = sourceColumn
    }

    private var keys: [ObjectKey] {
        let session = target.session
        do {
            let table = try session.table(target.model.tableKey, for: target.model.name)
            let all = try table.backlinks(of: target.key, from: source.tableKey, column: source.columns[sourceColumn])
            var seen = Set<ObjectKey>()
            return all.filter { seen.insert($0).inserted }
        } catch {
            session.record(error)
            return []
        }
    }

    var count: Int { keys.count }

    func element(at index: Int) -> Element {
        let row = MigrationRow(
            session: target.session, model: source, key: keys[index], isWritable: target.isWritable,
            versionModels: target.versionModels)
        return Element(managedBy: row)
    }
}

import Foundation
import StrataStorage

/// Which changes of an object count for an observer: its own properties (all of them, or those `keyPaths:`
/// names) and, one link down, properties of the objects its links and lists point to.
///
/// With no key paths, every property counts, and so does every property of the objects the object links to
/// directly (Realm reports those as modifications too). `"name"` watches one property; `"favourite.name"`
/// watches the link itself and the `name` of the object it points to. Linking-objects properties are never
/// watched: they are not stored in the object.
///
/// `Hashable` (part of a ``ResultsIdentity``): a model binding counts by its table.
struct WatchedProperties: Hashable {
    /// One link or list-of-links column followed to its target's properties.
    struct Link: Hashable {
        var column: Int
        var target: ModelBinding
        /// The target's columns that count (all its properties when no key path names them; never its
        /// backlinks, which change when another object links to the same target).
        var columns: Set<ColumnKey>

        static func == (left: Link, right: Link) -> Bool {
            left.column == right.column && left.target.tableKey == right.target.tableKey
                && left.columns == right.columns
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(column)
            hasher.combine(target.tableKey)
            hasher.combine(columns)
        }
    }

    let model: ModelBinding
    /// The model's columns that count.
    let own: Set<ColumnKey>
    let links: [Link]

    static func == (left: WatchedProperties, right: WatchedProperties) -> Bool {
        left.model.tableKey == right.model.tableKey && left.own == right.own && left.links == right.links
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(model.tableKey)
        hasher.combine(own)
        hasher.combine(links)
    }

    /// Watches what `keyPaths` names (`nil`: everything, as described above).
    ///
    /// - Throws: `StrataError.invalidArgument` naming a key path that is not a property of the model, or that
    ///   goes more than one link deep.
    init(model: ModelBinding, keyPaths: [String]?) throws {
        self.model = model
        guard let keyPaths else {
            own = Set(model.columns)
            links = model.linkTargets.keys.sorted().compactMap { column in
                model.linkTargets[column].map { Link(column: column, target: $0, columns: Set($0.columns)) }
            }
            return
        }
        var own = Set<ColumnKey>()
        var links: [Int: Link] = [:]
        for keyPath in keyPaths {
            let parts = keyPath.split(separator: ".").map(String.init)
            guard let first = parts.first, let column = model.column(named: first) else {
                throw Self.unknown(keyPath, model: model)
            }
            own.insert(model.columns[column])
            guard parts.count > 1 else { continue }
            guard parts.count == 2, let target = model.linkTargets[column], let targetColumn = target.column(named: parts[1])
            else {
                throw StrataError.invalidArgument(
                    "keyPaths: '\(keyPath)' of \(model.name) must name a property, or a property of an object one link "
                        + "or list away (like 'favourite.name')")
            }
            var link = links[column] ?? Link(column: column, target: target, columns: [])
            link.columns.insert(target.columns[targetColumn])
            links[column] = link
        }
        self.own = own
        self.links = links.keys.sorted().compactMap { links[$0] }
    }

    private static func unknown(_ keyPath: String, model: ModelBinding) -> StrataError {
        let names = model.description.properties.map(\.name).joined(separator: ", ")
        return .invalidArgument("keyPaths: '\(keyPath)' is not a property of \(model.name); its properties are \(names)")
    }

    /// The watched own columns among `changed`.
    func ownChanges(_ changed: Set<ColumnKey>) -> Set<ColumnKey> { changed.intersection(own) }

    /// Whether the linked tables' changes can matter at all (a followed target has an object whose watched
    /// columns changed).
    func linkedTablesChanged(_ delivery: Delivery, since baseline: Database) throws -> Bool {
        for link in links {
            let changes = try delivery.changes(of: link.target.tableKey, since: baseline)
            if changes.modifications.values.contains(where: { !$0.isDisjoint(with: link.columns) }) { return true }
        }
        return false
    }

    /// Whether object `key` counts as modified: a watched column of its own changed, or a watched property of an
    /// object one of its followed links points to (in the new version).
    func isModified(_ key: ObjectKey, own ownChanges: TableChanges, delivery: Delivery, since baseline: Database) throws -> Bool {
        if let columns = ownChanges.modifications[key], !columns.isDisjoint(with: own) { return true }
        guard !links.isEmpty else { return false }
        let table = try delivery.snapshot.table(for: model)
        for link in links {
            let targetChanges = try delivery.changes(of: link.target.tableKey, since: baseline)
            guard !targetChanges.modifications.isEmpty else { continue }
            let value = try table.value(key, column: model.columns[link.column])
            for target in Self.linkedKeys(value) {
                guard let columns = targetChanges.modifications[target] else { continue }
                if !columns.isDisjoint(with: link.columns) { return true }
            }
        }
        return false
    }

    /// The keys a link, or list, set or map of links value points to.
    static func linkedKeys(_ value: StorageValue) -> [ObjectKey] {
        switch value {
        case .link(let key): return [key]
        case .list(let values): return values.compactMap { if case .link(let key) = $0 { return key } else { return nil } }
        case .map(let entries):
            return entries.values.compactMap { if case .link(let key) = $0 { return key } else { return nil } }
        default: return []
        }
    }
}

import Foundation
import StrataStorage

/// Which changes of an object count for an observer: its own properties (all of them, or those `keyPaths:`
/// names) and, one link down, properties of the objects its links and lists point to; through embedded objects,
/// every level down (an embedded object is part of its parent, so a change inside `home.geo` is a change of
/// `home`).
///
/// With no key paths, every property counts, and so does every property of the objects the object links to
/// directly (Realm reports those as modifications too). `"name"` watches one property; `"favourite.name"`
/// watches the link itself and the `name` of the object it points to; `"home.geo.lat"` goes further only through
/// embedded objects. Linking-objects properties are never watched: they are not stored in the object.
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
        /// The target's links to embedded objects followed further (by the target's column numbers).
        var nested: [Link] = []

        static func == (left: Link, right: Link) -> Bool {
            left.column == right.column && left.target.tableKey == right.target.tableKey
                && left.columns == right.columns && left.nested == right.nested
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(column)
            hasher.combine(target.tableKey)
            hasher.combine(columns)
            hasher.combine(nested)
        }

        /// Every property of `target` at `column`, and of the embedded objects it holds, every level down.
        static func whole(column: Int, target: ModelBinding) -> Link {
            let nested = target.linkTargets.keys.sorted().compactMap { inner -> Link? in
                guard let embedded = target.linkTargets[inner], embedded.isEmbedded else { return nil }
                return whole(column: inner, target: embedded)
            }
            return Link(column: column, target: target, columns: Set(target.columns), nested: nested)
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
                model.linkTargets[column].map { Link.whole(column: column, target: $0) }
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
            guard let target = model.linkTargets[column],
                let link = Self.follow(
                    parts.dropFirst(), into: links[column] ?? Link(column: column, target: target, columns: []))
            else {
                throw StrataError.invalidArgument(
                    "keyPaths: '\(keyPath)' of \(model.name) must name a property, or a property of an object one link "
                        + "or list away (like 'favourite.name'), or further inside embedded objects "
                        + "(like 'home.geo.lat')")
            }
            links[column] = link
        }
        self.own = own
        self.links = links.keys.sorted().compactMap { links[$0] }
    }

    /// `link` also watching the property `parts` names in its target (`["city"]`, or `["geo", "lat"]` through an
    /// embedded link); `nil` when `parts` names no such property.
    private static func follow(_ parts: ArraySlice<String>, into link: Link) -> Link? {
        guard let first = parts.first, let column = link.target.column(named: first) else { return nil }
        var link = link
        link.columns.insert(link.target.columns[column])
        guard parts.count > 1 else { return link }
        guard let inner = link.target.linkTargets[column], inner.isEmbedded else { return nil }
        let position = link.nested.firstIndex { $0.column == column }
        let start = position.map { link.nested[$0] } ?? Link(column: column, target: inner, columns: [])
        guard let followed = follow(parts.dropFirst(), into: start) else { return nil }
        if let position { link.nested[position] = followed } else { link.nested.append(followed) }
        return link
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
        try links.contains { try Self.tablesChanged($0, delivery, since: baseline) }
    }

    private static func tablesChanged(_ link: Link, _ delivery: Delivery, since baseline: Database) throws -> Bool {
        let changes = try delivery.changes(of: link.target.tableKey, since: baseline)
        if changes.modifications.values.contains(where: { !$0.isDisjoint(with: link.columns) }) { return true }
        return try link.nested.contains { try tablesChanged($0, delivery, since: baseline) }
    }

    /// The objects of `link`'s target whose watched properties changed, counting changes inside the embedded
    /// objects they hold (found from the changed embedded objects up, through the store's backlinks).
    static func changedTargets(of link: Link, _ delivery: Delivery, since baseline: Database) throws -> Set<ObjectKey> {
        let key = Delivery.ChangedTargetsKey(baseline: baseline.version, link: link)
        if let known = delivery.changedTargets[key] { return known }
        let changes = try delivery.changes(of: link.target.tableKey, since: baseline)
        var changed = Set<ObjectKey>()
        for (target, columns) in changes.modifications where !columns.isDisjoint(with: link.columns) {
            changed.insert(target)
        }
        for nested in link.nested {
            let inner = try changedTargets(of: nested, delivery, since: baseline)
            guard !inner.isEmpty else { continue }
            let innerTable = try delivery.snapshot.table(for: nested.target)
            let column = link.target.columns[nested.column]
            for key in inner where try innerTable.contains(key) {
                changed.formUnion(try innerTable.backlinks(of: key, from: link.target.tableKey, column: column))
            }
        }
        delivery.changedTargets[key] = changed
        return changed
    }

    /// Whether one of `keys` (objects of `link`'s target) counts as changed. A link with no embedded objects to
    /// follow looks each key up in its table's changes, as it always did; the others use
    /// ``changedTargets(of:_:since:)``, kept by the delivery.
    static func touches(
        _ link: Link, _ keys: [ObjectKey], _ delivery: Delivery, since baseline: Database
    ) throws -> Bool {
        guard link.nested.isEmpty else {
            let changed = try changedTargets(of: link, delivery, since: baseline)
            return keys.contains(where: changed.contains)
        }
        let changes = try delivery.changes(of: link.target.tableKey, since: baseline)
        return keys.contains { changes.modifications[$0].map { !$0.isDisjoint(with: link.columns) } ?? false }
    }

    /// Whether object `key` counts as modified: a watched column of its own changed, or a watched property of an
    /// object one of its followed links points to (in the new version).
    func isModified(_ key: ObjectKey, own ownChanges: TableChanges, delivery: Delivery, since baseline: Database) throws -> Bool {
        if let columns = ownChanges.modifications[key], !columns.isDisjoint(with: own) { return true }
        guard !links.isEmpty else { return false }
        let table = try delivery.snapshot.table(for: model)
        for link in links {
            let targetChanges = try delivery.changes(of: link.target.tableKey, since: baseline)
            if link.nested.isEmpty, targetChanges.modifications.isEmpty { continue }
            let value = try table.value(key, column: model.columns[link.column])
            if try Self.touches(link, Self.linkedKeys(value), delivery, since: baseline) { return true }
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

import Foundation
import StrataStorage

/// An observer of one managed object: compares the changed columns of its row (and, for followed links, the
/// objects they point to) between the snapshot it last reported and the delivery's.
final class ObjectObservation<T: ObjectBase>: Observation {
    let database: Database
    private let model: ModelBinding
    private let key: ObjectKey
    private let watched: WatchedProperties
    private let block: (ObjectChange<T>) -> Void
    var isActive = true
    private var baseline: Database?
    private var finished = false

    /// - Parameter baseline: A snapshot at the version the object was observed at (changes after it are
    ///   reported), or `nil` to start at the first delivery.
    init(
        row: ManagedRow, on database: Database, baseline: Database?, keyPaths: [String]?,
        block: @escaping (ObjectChange<T>) -> Void
    ) throws {
        guard let model = database.schema.model(named: row.model.name) else {
            throw StrataError.invalidArgument("\(row.model.name) is not a model of the observing database")
        }
        self.database = database
        self.model = model
        self.key = row.key
        self.block = block
        self.baseline = baseline
        watched = try WatchedProperties(model: model, keyPaths: keyPaths)
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard !finished else { return }
        do {
            guard let baseline else {
                // Objects have no initial notification; one deleted before the first delivery is reported.
                guard notify else { return }
                self.baseline = delivery.snapshot
                let exists = try delivery.snapshot.table(for: model).contains(key)
                if !exists { finish(.deleted) }
                return
            }
            guard baseline.version != delivery.version else { return }
            let own = try delivery.changes(of: model.tableKey, since: baseline)
            let exists = try delivery.snapshot.table(for: model).contains(key)
            if own.deletions.contains(key) || !exists {
                self.baseline = delivery.snapshot
                if notify { finish(.deleted) } else { finished = true }
                return
            }
            let properties = try propertyChanges(own: own, baseline: baseline, delivery: delivery)
            self.baseline = delivery.snapshot
            guard notify, !properties.isEmpty, let object = delivery.database.object(of: model, key: key) as? T else { return }
            block(.change(object, properties))
        } catch {
            fail(database.namingFile(error))
        }
    }

    /// The watched properties that changed, in the model's column order: own columns with their old and new
    /// values, then links whose target changed a followed property.
    private func propertyChanges(own: TableChanges, baseline: Database, delivery: Delivery) throws -> [PropertyChange] {
        let oldTable = try baseline.table(for: model)
        let newTable = try delivery.snapshot.table(for: model)
        let changedColumns = watched.ownChanges(own.modifications[key] ?? [])
        var changes: [PropertyChange] = []
        var reported = Set<Int>()
        for (column, columnKey) in model.columns.enumerated() where changedColumns.contains(columnKey) {
            reported.insert(column)
            changes.append(PropertyChange(
                name: model.description.properties[column].name,
                oldValue: try value(oldTable.value(key, column: columnKey), column: column, in: baseline),
                newValue: try value(newTable.value(key, column: columnKey), column: column, in: delivery.database)))
        }
        for link in watched.links where !reported.contains(link.column) {
            let linked = try newTable.value(key, column: model.columns[link.column])
            guard try WatchedProperties.touches(link, WatchedProperties.linkedKeys(linked), delivery, since: baseline)
            else { continue }
            let current = try value(linked, column: link.column, in: delivery.database)
            changes.append(PropertyChange(
                name: model.description.properties[link.column].name, oldValue: current, newValue: current))
        }
        return changes
    }

    /// A stored value as the property's Swift value: numbers, strings, dates…, an object of `database` for a
    /// link, `nil` for nil and for lists, sets and maps.
    private func value(_ stored: StorageValue, column: Int, in database: Database) throws -> Any? {
        if case .link(let linked) = stored, let target = model.linkTargets[column] {
            return database.object(of: target, key: linked)
        }
        if model.description.properties[column].type == .any {
            if case .typedLink(let table, let linked) = stored, let target = database.schema.model(forTable: table),
                let object = database.object(of: target, key: linked) as? Object
            {
                return AnyValue.object(object)
            }
            return AnyValue.fromPersistedValue(ValueConversion.persistedValue(stored)) ?? AnyValue.none
        }
        switch ValueConversion.persistedValue(stored) {
        case .null, .list, .object, .map: return nil
        case .bool(let value): return value
        case .int(let value): return Int(truncatingIfNeeded: value)
        case .float(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .uuid(let value): return value
        case .decimal(let value): return value
        case .objectId(let value): return value
        }
    }

    private func finish(_ change: ObjectChange<T>) {
        finished = true
        block(change)
    }

    func fail(_ error: Error) {
        guard !finished else { return }
        finish(.error(error))
    }
}

/// An observer of the whole database: told after every delivery that brought a new version.
final class DatabaseObservation: Observation {
    let database: Database
    private let block: (DatabaseNotification, Database) -> Void
    var isActive = true
    private var version: UInt64?

    init(database: Database, block: @escaping (DatabaseNotification, Database) -> Void) {
        self.database = database
        self.block = block
        version = database.version
    }

    func deliver(_ delivery: Delivery, notify: Bool) {
        guard let version else {
            // The version the observer started at: only later commits are news.
            self.version = delivery.version
            return
        }
        guard version != delivery.version else { return }
        self.version = delivery.version
        if notify { block(.didChange, delivery.database) }
    }

    func fail(_ error: Error) {
        block(.refreshRequired, database)
    }
}

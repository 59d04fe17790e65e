#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

/// What `print(object)` shows: the model's name and every stored property's value, as Realm prints its objects
/// (`Person { id = 1; name = Ana; dogs = [Dog { name = Rex; age = 3 }] }`), read from the store for a managed
/// object and from its own values for an unmanaged one.
///
/// Linked objects are shown nested down to ``maximumDepth`` (deeper ones, and so any cycle, as `Dog { … }`), and a
/// list's first ``listLimit`` elements, so that printing an object never runs away.
enum ObjectDescription {
    /// How many links deep linked objects show their values.
    static let maximumDepth = 2
    /// How many elements of a list are shown.
    static let listLimit = 10

    /// `object` described, as a value `depth` links away from the object printed.
    static func describe(_ object: ObjectBase, depth: Int = 0) -> String {
        let model = type(of: object).modelDescription
        let row = object.managedAccessor as? any ObjectRow
        let name = row?.layout.name ?? model.name
        if depth > maximumDepth { return "\(name) { … }" }
        let fields: [(name: String, value: PersistedValue)]
        if let row {
            if let managed = row as? ManagedRow, managed.isInvalidated { return "\(name) { invalidated }" }
            fields = storedFields(of: row)
        } else if let accessor = object.managedAccessor {
            // Another store reference (a test's): its values can only be read property by property, by type.
            return "\(name) { values kept by \(type(of: accessor)) }"
        } else {
            fields = zip(model.properties.map(\.name), object.persistedValues()).map { ($0, $1) }
        }
        let shown = fields.map { "\($0.name) = \(describe($0.value, depth: depth + 1))" }
        return shown.isEmpty ? "\(name) {}" : "\(name) { \(shown.joined(separator: "; ")) }"
    }

    /// A collection of objects: its kind and element type, its count and its first ``listLimit`` objects,
    /// `Results<Person> (3 objects) [Person { id = 1; … }, …]`.
    static func describe<Element: Object>(
        collection: some Collection<Element>, kind: String, count: Int
    ) -> String {
        "\(kind)<\(Element.self)> (\(count) objects) "
            + describe(elements: collection.prefix(listLimit).map(\.debugDescription), count: count)
    }

    /// A list's or a collection's first elements, described, and how many more there are: `[a, b, … 8 more]`.
    static func describe(elements: some Sequence<String>, count: Int) -> String {
        let shown = Array(elements.prefix(listLimit))
        let more = count > shown.count ? (shown.isEmpty ? "" : ", ") + "… \(count - shown.count) more" : ""
        return "[" + shown.joined(separator: ", ") + more + "]"
    }

    /// One value: text as it is (as Realm prints it), a linked object nested, `nil` for no value.
    private static func describe(_ value: PersistedValue, depth: Int) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return String(flag)
        case .int(let number): return String(number)
        case .float(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return text
        case .data(let bytes): return "<\(bytes.count) bytes>"
        case .date(let date): return String(describing: date)
        case .uuid(let uuid): return uuid.uuidString
        case .decimal(let number): return "\(number)"
        case .objectId(let id): return id.stringValue
        // An embedded object is part of its parent (and cannot form a cycle): shown whole, at the parent's depth.
        case .object(let object): return describe(object, depth: object is EmbeddedObject ? depth - 1 : depth)
        case .list(let elements):
            return describe(elements: elements.lazy.map { describe($0, depth: depth) }, count: elements.count)
        case .map(let entries):
            if entries.isEmpty { return "[:]" }
            let sorted = entries.sorted { MapKeyOrder.precedes($0.key, $1.key) }
            return describe(
                elements: sorted.lazy.map { "\($0.key): \(describe($0.value, depth: depth))" }, count: entries.count)
        }
    }

    /// The stored values of a managed row, linked objects as objects (of the database's classes, or of the
    /// row's own type when the row knows none, as in a migration).
    private static func storedFields<Row: ObjectRow>(of row: Row) -> [(name: String, value: PersistedValue)] {
        row.layout.description.properties.indices.map { column in
            let stored = row.read(column) { try $0.value(row.key, column: $1) } ?? .null
            return (row.layout.propertyName(column), persisted(stored, row: row, column: column))
        }
    }

    private static func persisted<Row: ObjectRow>(_ value: StorageValue, row: Row, column: Int) -> PersistedValue {
        switch value {
        case .link(let key):
            return row.linkedObject(column, key: key, as: ObjectBase.self).map { .object($0) } ?? .null
        case .typedLink(let table, let key):
            return row.mixedObject(table: table, key: key).map { .object($0) } ?? .null
        case .list(let elements):
            return .list(elements.map { persisted($0, row: row, column: column) })
        case .map(let entries):
            return .map(entries.mapValues { persisted($0, row: row, column: column) })
        default:
            return ValueConversion.persistedValue(value)
        }
    }
}

extension ObjectBase: CustomDebugStringConvertible {
    /// The model's name and the values of its stored properties: `Person { id = 1; name = Ana; … }`. What
    /// `print(object)` and string interpolation show (a model may declare a property called `description`, so
    /// `ObjectBase` leaves that name to it).
    public var debugDescription: String { ObjectDescription.describe(self) }
}

import Foundation
@_spi(StrataGenerated) import Strata

/// A stand-in for the object layer's store reference: it keeps one object's columns in a dictionary, so tests can
/// make generated classes managed and check that every property reads and writes through the accessor.
final class DictionaryAccessor: ManagedObjectAccessor {
    /// The stored values by column.
    var values: [Int: PersistedValue]
    /// Lists by column, created on first access and kept so that the same managed list is returned each time.
    private var lists: [Int: AnyObject] = [:]
    /// The objects pointing to this one, by the name of their property.
    var backlinks: [String: [Object]] = [:]

    init(_ values: [Int: PersistedValue] = [:]) {
        self.values = values
    }

    func int(at column: Int) -> Int64 {
        if case .int(let value)? = values[column] { return value }
        return 0
    }

    func setInt(_ value: Int64, at column: Int) { values[column] = .int(value) }

    func optionalInt(at column: Int) -> Int64? {
        if case .int(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalInt(_ value: Int64?, at column: Int) { values[column] = value.map { .int($0) } ?? .null }

    func bool(at column: Int) -> Bool {
        if case .bool(let value)? = values[column] { return value }
        return false
    }

    func setBool(_ value: Bool, at column: Int) { values[column] = .bool(value) }

    func optionalBool(at column: Int) -> Bool? {
        if case .bool(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalBool(_ value: Bool?, at column: Int) { values[column] = value.map { .bool($0) } ?? .null }

    func float(at column: Int) -> Float {
        if case .float(let value)? = values[column] { return value }
        return 0
    }

    func setFloat(_ value: Float, at column: Int) { values[column] = .float(value) }

    func optionalFloat(at column: Int) -> Float? {
        if case .float(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalFloat(_ value: Float?, at column: Int) { values[column] = value.map { .float($0) } ?? .null }

    func double(at column: Int) -> Double {
        if case .double(let value)? = values[column] { return value }
        return 0
    }

    func setDouble(_ value: Double, at column: Int) { values[column] = .double(value) }

    func optionalDouble(at column: Int) -> Double? {
        if case .double(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalDouble(_ value: Double?, at column: Int) { values[column] = value.map { .double($0) } ?? .null }

    func string(at column: Int) -> String {
        if case .string(let value)? = values[column] { return value }
        return ""
    }

    func setString(_ value: String, at column: Int) { values[column] = .string(value) }

    func optionalString(at column: Int) -> String? {
        if case .string(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalString(_ value: String?, at column: Int) { values[column] = value.map { .string($0) } ?? .null }

    func data(at column: Int) -> Data {
        if case .data(let value)? = values[column] { return value }
        return Data()
    }

    func setData(_ value: Data, at column: Int) { values[column] = .data(value) }

    func optionalData(at column: Int) -> Data? {
        if case .data(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalData(_ value: Data?, at column: Int) { values[column] = value.map { .data($0) } ?? .null }

    func date(at column: Int) -> Date {
        if case .date(let value)? = values[column] { return value }
        return Date(timeIntervalSince1970: 0)
    }

    func setDate(_ value: Date, at column: Int) { values[column] = .date(value) }

    func optionalDate(at column: Int) -> Date? {
        if case .date(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalDate(_ value: Date?, at column: Int) { values[column] = value.map { .date($0) } ?? .null }

    func uuid(at column: Int) -> UUID {
        if case .uuid(let value)? = values[column] { return value }
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }

    func setUUID(_ value: UUID, at column: Int) { values[column] = .uuid(value) }

    func optionalUUID(at column: Int) -> UUID? {
        if case .uuid(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalUUID(_ value: UUID?, at column: Int) { values[column] = value.map { .uuid($0) } ?? .null }

    func decimal(at column: Int) -> Decimal { optionalDecimal(at: column) ?? 0 }

    func setDecimal(_ value: Decimal, at column: Int) { values[column] = .decimal(value) }

    func optionalDecimal(at column: Int) -> Decimal? {
        if case .decimal(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalDecimal(_ value: Decimal?, at column: Int) { values[column] = value.map { .decimal($0) } ?? .null }

    func objectId(at column: Int) -> ObjectId { optionalObjectId(at: column) ?? .zero }

    func setObjectId(_ value: ObjectId, at column: Int) { values[column] = .objectId(value) }

    func optionalObjectId(at column: Int) -> ObjectId? {
        if case .objectId(let value)? = values[column] { return value }
        return nil
    }

    func setOptionalObjectId(_ value: ObjectId?, at column: Int) { values[column] = value.map { .objectId($0) } ?? .null }

    func anyValue(at column: Int) -> AnyValue { values[column].flatMap(AnyValue.fromPersistedValue) ?? .none }

    func setAnyValue(_ value: AnyValue, at column: Int) { values[column] = value.persistedValue }

    func link<Target: ObjectBase>(at column: Int, as type: Target.Type) -> Target? {
        if case .object(let object)? = values[column] { return object as? Target }
        return nil
    }

    func setLink(_ target: ObjectBase?, at column: Int) { values[column] = target.map { .object($0) } ?? .null }

    func linkedAccessor(at column: Int) -> (any ManagedObjectAccessor)? {
        if case .object(let object)? = values[column] { return object.managedAccessor }
        return nil
    }

    func list<Element: ListElement>(at column: Int, of type: Element.Type) -> List<Element> {
        if let list = lists[column] as? List<Element> { return list }
        let list = List(managedBy: ArrayListAccessor<Element>(column: column, owner: self))
        lists[column] = list
        return list
    }

    func setList<Element: ListElement>(_ elements: List<Element>, at column: Int) {
        values[column] = .list(elements.map(\.persistedValue))
    }

    func linkedAccessors(at column: Int) -> [any ManagedObjectAccessor] {
        guard case .list(let elements)? = values[column] else { return [] }
        return elements.compactMap { element in
            if case .object(let object) = element { return object.managedAccessor }
            return nil
        }
    }

    func linkingObjects<Source: Object>(_ type: Source.Type, through property: String) -> LinkingObjects<Source> {
        let sources = (backlinks[property] ?? []).compactMap { $0 as? Source }
        return LinkingObjects(property: property, managedBy: FixedLinkingObjects(sources))
    }

    /// A set over the column's `.list` value: an unmanaged set, written back by `setMutableSet`.
    func mutableSet<Element: ListElement>(at column: Int, of type: Element.Type) -> MutableSet<Element> {
        guard case .list(let elements)? = values[column] else { return MutableSet() }
        return MutableSet(elements.compactMap(Element.fromPersistedValue))
    }

    func setMutableSet<Element: ListElement>(_ elements: MutableSet<Element>, at column: Int) {
        values[column] = .list(elements.map(\.persistedValue))
    }

    /// A map over the column's `.map` value: an unmanaged map, written back by `setMap`.
    func map<Value: ListElement>(at column: Int, of type: Value.Type) -> Map<String, Value> {
        guard case .map(let entries)? = values[column] else { return Map() }
        return Map(entries.compactMapValues(Value.fromPersistedValue))
    }

    func setMap<Value: ListElement>(_ entries: Map<String, Value>, at column: Int) {
        values[column] = .map(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value.persistedValue) }))
    }

    func linkedAccessorMap(at column: Int) -> [String: (any ManagedObjectAccessor)?] {
        guard case .map(let entries)? = values[column] else { return [:] }
        return entries.mapValues { value -> (any ManagedObjectAccessor)? in
            if case .object(let object) = value { return object.managedAccessor }
            return nil
        }
    }
}

/// A managed list whose elements live in a `DictionaryAccessor`'s column as a `.list` value.
final class ArrayListAccessor<Element: ListElement>: ManagedListAccessor {
    let column: Int
    let owner: DictionaryAccessor

    init(column: Int, owner: DictionaryAccessor) {
        self.column = column
        self.owner = owner
    }

    private var elements: [PersistedValue] {
        get {
            if case .list(let elements)? = owner.values[column] { return elements }
            return []
        }
        set { owner.values[column] = .list(newValue) }
    }

    var count: Int { elements.count }

    func element(at index: Int) -> Element {
        guard let element = Element.fromPersistedValue(elements[index]) else {
            fatalError("column \(column) holds \(elements[index]), not a \(Element.self)")
        }
        return element
    }

    func replaceElement(at index: Int, with element: Element) { elements[index] = element.persistedValue }
    func insert(_ element: Element, at index: Int) { elements.insert(element.persistedValue, at: index) }
    func removeElement(at index: Int) { elements.remove(at: index) }
    func moveElement(from source: Int, to destination: Int) {
        elements.insert(elements.remove(at: source), at: destination)
    }
    func removeAll() { elements = [] }
}

/// Linking objects fixed when they are created.
final class FixedLinkingObjects<Element: Object>: ManagedLinkingObjectsAccessor {
    let elements: [Element]
    init(_ elements: [Element]) { self.elements = elements }
    var count: Int { elements.count }
    func element(at index: Int) -> Element { elements[index] }
}

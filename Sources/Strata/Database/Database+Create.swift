import Foundation
import StrataSchema
import StrataStorage

extension Database {
    /// Creates an object of `type` from a dictionary (property name → value), an array (values in the schema's
    /// property order) or another object, or updates the stored object with the same primary key.
    ///
    /// Nested dictionaries and arrays create (or, with an update policy, update) linked objects. With `.modified`
    /// or `.all` and an existing primary key, only the properties `value` names are written: the others keep their
    /// stored values (a partial update). Properties `value` does not name get their schema default on creation.
    ///
    /// ```swift
    /// db.create(Person.self, value: ["id": 2, "name": "Bo"], update: .modified)
    /// ```
    ///
    /// - Returns: The managed object. If the creation fails (a wrong value type, a duplicate primary key under
    ///   `.error`), the write is doomed (`write {}` throws the error) and the returned object is invalidated.
    @discardableResult
    public func create<Element: Object>(_ type: Element.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> Element {
        requireWrite("create a \(type)")
        guard let model = schema.model(for: type) else {
            preconditionFailure("Strata: \(type) is not a model of this database; check Configuration.objectTypes")
        }
        let key = perform { try create(model, from: value, policy: update) } ?? ObjectKey(-1)
        guard let object = object(of: model, key: key) as? Element else {
            preconditionFailure("Strata: \(model.name) is not \(Element.self)")
        }
        return object
    }

    /// Creates or updates one object of `model` from `value`; returns its key.
    private func create(_ model: ModelBinding, from value: Any, policy: UpdatePolicy) throws -> ObjectKey {
        if let object = value as? ObjectBase, object.managedAccessor == nil || object.database?.store !== store {
            return try create(model, from: Self.dictionary(of: object), policy: policy)
        }
        if let object = value as? ObjectBase, let row = object.managedAccessor as? ManagedRow, row.model === model {
            return row.key
        }
        let fields = try fieldDictionary(value, model: model)
        for name in fields.keys.sorted() where model.column(named: name) == nil {
            let suggestion = Suggestion.didYouMean(name, among: model.description.properties.map(\.name))
            throw StrataError.invalidArgument(
                "create(\(model.name).self, value:) names '\(name)', which is not a stored property of \(model.name)"
                    + suggestion)
        }
        let table = try table(for: model)
        var existing: ObjectKey?
        if let primaryKey = model.primaryKeyColumn, let given = fields[model.description.properties[primaryKey].name],
            let keyValue = try convert(given, for: model.description.properties[primaryKey], of: model, policy: policy)
        {
            existing = try table.find(primaryKey: keyValue)
            if existing != nil, policy == .error {
                throw StrataError.duplicatePrimaryKey(type: model.name, key: "\(keyValue)")
            }
            if existing == nil, model.hasAutoIncrementPrimaryKey, case .int(let explicit) = keyValue {
                try table.raiseSequence(ModelBinding.primaryKeySequence, toAtLeast: explicit)
            }
        }
        var row: [(ColumnKey, StorageValue)] = []
        for (column, property) in model.description.properties.enumerated() {
            let stored: StorageValue
            if let given = fields[property.name] {
                guard let converted = try convert(given, for: property, of: model, policy: policy) else { continue }
                stored = converted
            } else if existing == nil {
                stored = try defaultValue(for: property, in: table, model: model)
            } else {
                continue
            }
            row.append((model.columns[column], stored))
        }
        if let existing {
            try update(table, key: existing, row: row, model: model, onlyChanged: policy == .modified)
            return existing
        }
        return try table.insert(row)
    }

    /// `value` as property name → value.
    private func fieldDictionary(_ value: Any, model: ModelBinding) throws -> [String: Any] {
        if let dictionary = value as? [String: Any] { return dictionary }
        if let array = value as? [Any] {
            let properties = model.description.properties
            guard array.count <= properties.count else {
                throw StrataError.invalidArgument(
                    "create(\(model.name).self, value:) got \(array.count) values for \(properties.count) properties")
            }
            return Dictionary(uniqueKeysWithValues: zip(properties.map(\.name), array))
        }
        throw StrataError.invalidArgument(
            "create(\(model.name).self, value:) takes a dictionary, an array or an object, not \(type(of: value))")
    }

    /// An unmanaged object's (or another database's object's) values by property name.
    private static func dictionary(of object: ObjectBase) -> [String: Any] {
        let description = type(of: object).modelDescription
        var fields: [String: Any] = [:]
        for (property, value) in zip(description.properties, object.persistedValues()) {
            fields[property.name] = value
        }
        return fields
    }

    /// The schema default of `property` for a new object (`auto` included).
    private func defaultValue(for property: PropertyDefinition, in table: Table, model: ModelBinding) throws -> StorageValue {
        if property.defaultValue == .auto {
            switch property.type.unwrapped {
            case .uuid: return .uuid(UUID())
            case .objectId: return .objectId(ObjectId.generate())
            case .date: return .timestamp(ValueConversion.timestamp(Date()))
            case .integer: return .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))
            default: break
            }
        }
        if let value = ValueConversion.defaultValue(for: property) { return value }
        if property.type.isOptional { return .null }
        switch property.type {
        case .list, .set: return .list([])
        case .map: return .map([:])
        case .enumeration(let cases): return .string(cases.first ?? "")
        default:
            guard let kind = property.type.valueKind else { return .null }
            return StorageValue.zero(of: kind)
        }
    }

    /// A value given to `create` in the store's terms, creating linked objects; `nil` for a link or list of
    /// links given as an already-resolved `PersistedValue.null` that should be left alone.
    private func convert(
        _ value: Any, for property: PropertyDefinition, of owner: ModelBinding, policy: UpdatePolicy
    ) throws -> StorageValue? {
        let wrong = {
            StrataError.invalidArgument(
                "\(owner.name).\(property.name) \(Self.holds(property.type)), and \(type(of: value)) '\(value)' cannot "
                    + "be stored in it")
        }
        if Self.isNil(value) {
            guard property.type.isNullable else { throw wrong() }
            return .null
        }
        switch property.type {
        case .list(let element), .set(let element):
            let elements: [Any]
            if let array = value as? [Any] {
                elements = array
            } else if let set = value as? Set<AnyHashable>, case .set = property.type {
                elements = Array(set)
            } else if case .list(let persisted)? = value as? PersistedValue {
                elements = persisted
            } else {
                throw wrong()
            }
            let probe = PropertyDefinition(name: property.name, type: element, location: property.location)
            return .list(try elements.map { try convert($0, for: probe, of: owner, policy: policy) ?? .null })
        case .map(let element):
            let entries: [String: Any]
            if let dictionary = value as? [String: Any] {
                entries = dictionary
            } else if case .map(let persisted)? = value as? PersistedValue {
                entries = persisted
            } else {
                throw wrong()
            }
            let probe = PropertyDefinition(name: property.name, type: element, location: property.location)
            var stored: [String: StorageValue] = [:]
            for (key, entry) in entries {
                if let problem = MapKeyOrder.problem(with: key) {
                    throw StrataError.invalidArgument("\(owner.name).\(property.name): \(problem)")
                }
                stored[key] = try convert(entry, for: probe, of: owner, policy: policy) ?? .null
            }
            return .map(stored)
        case .link(let target), .optional(.link(let target)):
            guard let model = schema.model(named: target) else { throw wrong() }
            if case .object(let object)? = value as? PersistedValue { return .link(try create(model, from: object, policy: policy)) }
            if case .null? = value as? PersistedValue { return .null }
            return .link(try create(model, from: value, policy: policy))
        case .any:
            guard let stored = try mixed(value, policy: policy) else { throw wrong() }
            return stored
        default:
            if let persisted = value as? PersistedValue {
                guard let stored = ValueConversion.storageValue(persisted) else { throw wrong() }
                return stored
            }
            guard let stored = Self.primitive(value, as: property.type.unwrapped) else { throw wrong() }
            return stored
        }
    }

    /// A value given to `create` for a mixed (`any`) property in the store's terms: an `AnyValue`, a primitive, or
    /// an object (created, or updated with a policy, from an unmanaged one or another database's); `nil` for what a
    /// mixed value cannot hold (a dictionary: it names no model).
    private func mixed(_ value: Any, policy: UpdatePolicy) throws -> StorageValue? {
        var value = value
        if let held = value as? AnyValue {
            guard case .object(let object) = held else { return ValueConversion.storageValue(held.persistedValue) }
            value = object
        }
        if let persisted = value as? PersistedValue {
            guard case .object(let object) = persisted else { return ValueConversion.storageValue(persisted) }
            value = object
        }
        if let object = value as? Object {
            let model = try model(of: object)
            return .typedLink(model.tableKey, try create(model, from: object, policy: policy))
        }
        if let element = value as? any ListElement { return ValueConversion.storageValue(element.persistedValue) }
        return nil
    }

    /// What a property of `type` holds, for messages: `holds one of 'low', 'high'` for an enum (the cases, which is
    /// what a caller needs), `is a [string]` for the rest (the type as a schema file writes it).
    static func holds(_ type: PropertyType) -> String {
        switch type {
        case .enumeration(let cases), .optional(.enumeration(let cases)):
            let listed = cases.map { "'\($0)'" }.joined(separator: ", ")
            return "holds one of \(listed)" + (type.isOptional ? " or nil" : "")
        case .list(.enumeration(let cases)):
            return "holds a list of \(cases.map { "'\($0)'" }.joined(separator: ", "))"
        default:
            return "is a \(type.schemaSpelling)"
        }
    }

    /// Whether `value` is `nil` (boxed in `Any`), `NSNull` or `PersistedValue.null`.
    static func isNil(_ value: Any) -> Bool {
        if value is NSNull { return true }
        if case .null? = value as? PersistedValue { return true }
        let mirror = Mirror(reflecting: value)
        return mirror.displayStyle == .optional && mirror.children.isEmpty
    }

    /// A Swift value of a primitive property type in the store's terms, or `nil` if it is of another type.
    static func primitive(_ value: Any, as type: PropertyType) -> StorageValue? {
        switch type {
        case .bool: return (value as? Bool).map { .bool($0) }
        case .integer:
            if let int = value as? Int { return .int(Int64(int)) }
            if let int = value as? any BinaryInteger { return Int64(exactly: int).map { .int($0) } }
            return nil
        case .float:
            if let number = value as? Float { return .float(number) }
            if let number = value as? Double { return .float(Float(number)) }
            return (value as? Int).map { .float(Float($0)) }
        case .double:
            if let number = value as? Double { return .double(number) }
            if let number = value as? Float { return .double(Double(number)) }
            return (value as? Int).map { .double(Double($0)) }
        case .string: return (value as? String).map { .string($0) }
        case .enumeration(let cases):
            let raw = (value as? String) ?? (value as? any RawRepresentable<String>)?.rawValue
            guard let raw, cases.contains(raw) else { return nil }
            return .string(raw)
        case .date: return (value as? Date).map { .timestamp(ValueConversion.timestamp($0)) }
        case .data: return (value as? Data).map { .binary(Array($0)) }
        case .uuid: return (value as? UUID).map { .uuid($0) }
        case .decimal:
            if let number = value as? Decimal { return .decimal(number) }
            if let int = value as? any BinaryInteger { return Int64(exactly: int).map { .decimal(Decimal($0)) } }
            if let number = value as? Double, number.isFinite { return Decimal(string: "\(number)").map { .decimal($0) } }
            if let text = value as? String, DecimalSyntax.isValid(text) { return Decimal(string: text).map { .decimal($0) } }
            return nil
        case .objectId:
            if let id = value as? ObjectId { return .objectId(id) }
            return (value as? String).flatMap { ObjectId($0) }.map { .objectId($0) }
        default: return nil
        }
    }
}

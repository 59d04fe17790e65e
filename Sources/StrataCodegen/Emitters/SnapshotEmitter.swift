import StrataSchema
import StrataSchemaCompiler

/// Emits a model's `Snapshot`: a nested `Sendable`, `Codable`, `Hashable` struct of its persisted properties, the
/// model's conformance to `SnapshotConvertible` (`object.snapshot()` with its row reader, the cursor reader
/// `results.snapshots()` uses), and `init(snapshot:)` (docs/VALUES.md).
///
/// A snapshot holds a link as the linked object's primary key (its `StableObjectKey` when its model has none), a
/// link to an embedded object as that object's snapshot, a mixed value as `AnyValue.Snapshot`, lists and sets as
/// arrays and maps as dictionaries; linking objects and transient properties are left out. Its `Codable` form
/// goes through `SnapshotCodable`, so that it is the JSON `Database.exportJSON` and `strata export` write.
///
/// Code is one statement per property, never one call with an argument per property: a model of 1,000
/// properties must not make the type checker's memory explode.
struct SnapshotEmitter {
    /// The model.
    let model: ModelDefinition
    /// The schema version holding it and the models it links to.
    let schema: SchemaVersion
    /// `public ` or empty.
    let access: String
    /// The model's properties, translated as the class emitter translated them.
    let properties: [GeneratedProperty]

    /// Prepares the snapshot of `model`, a model of `schema`; `schemaTakenNames` as ``ModelClassEmitter`` takes
    /// them, so enumerations get the same type names.
    init(model: ModelDefinition, in schema: SchemaVersion, schemaTakenNames: Set<String>) {
        self.model = model
        self.schema = schema
        access = schema.access == .public ? "public " : ""
        properties = GeneratedProperty.translate(model, schemaTakenNames: schemaTakenNames)
    }

    private var className: String { SwiftIdentifier.escaped(model.name) }
    private var hookAccess: String { access.isEmpty ? "" : "@_spi(StrataGenerated) public " }
    private var persisted: [GeneratedProperty] { properties.filter { $0.column != nil } }

    /// Writes the extension.
    func emit(into writer: inout SwiftWriter) {
        writer.block("extension \(className): SnapshotConvertible") { body in
            emitStruct(into: &body)
            body.line()
            emitSnapshotMethods(into: &body)
            body.line()
            emitInitializer(into: &body)
        }
        for property in properties where property.enumTypeName != nil {
            writer.line()
            writer.line("nonisolated extension \(className).\(property.enumTypeName ?? ""): SnapshotCodable {}")
        }
    }

    // MARK: The struct

    private func emitStruct(into writer: inout SwiftWriter) {
        writer.doc(
            "The persisted values of a `\(model.name)` as a value that crosses actors and tasks: links by key, "
                + "embedded objects as their snapshots. Its JSON is the one `Database.exportJSON` writes.")
        writer.block("nonisolated \(access)struct Snapshot: Sendable, Hashable, Codable, SnapshotCodable") { body in
            for property in persisted {
                body.doc(property.definition.doc ?? "`\(property.definition.name)`.")
                body.line("\(access)var \(property.name): \(snapshotType(property))")
            }
            body.line()
            body.doc("Creates a snapshot; every value defaults to the property's default or its type's zero value.")
            if persisted.isEmpty {
                body.line("\(access)init() {}")
            } else {
                let parameters = persisted.map { "\($0.name): \(snapshotType($0)) = \(snapshotDefault($0))" }
                body.call("\(access)init", parameters, tail: " {")
                body.indented { inner in
                    for property in persisted { inner.line("self.\(property.name) = \(property.name)") }
                }
                body.line("}")
            }
            body.line()
            body.doc("Reads a snapshot from its JSON form.")
            body.block("\(access)init(from decoder: any Decoder) throws") { inner in
                if persisted.isEmpty { return }
                inner.line("let container = try decoder.container(keyedBy: SnapshotCodingKey.self)")
                for property in persisted {
                    let name = SwiftLiteral.string(property.definition.name)
                    inner.line("\(property.name) = try container.decodeSnapshot("
                        + "\(snapshotType(property)).self, forKey: \(name))")
                }
            }
            body.line()
            body.doc("Writes the snapshot in its JSON form.")
            body.block("\(access)func encode(to encoder: any Encoder) throws") { inner in
                if persisted.isEmpty {
                    inner.line("_ = encoder.container(keyedBy: SnapshotCodingKey.self)")
                    return
                }
                inner.line("var container = encoder.container(keyedBy: SnapshotCodingKey.self)")
                for property in persisted {
                    inner.line("try container.encodeSnapshot(\(property.name), forKey: "
                        + "\(SwiftLiteral.string(property.definition.name)))")
                }
            }
            body.line()
            body.doc("Writes the snapshot in its JSON form (as a nested value).")
            body.line("\(access)func encodeSnapshot(to encoder: any Encoder) throws { try encode(to: encoder) }")
            body.line()
            body.doc("Reads the snapshot from its JSON form (as a nested value).")
            body.line("\(access)init(snapshotFrom decoder: any Decoder) throws { try self.init(from: decoder) }")
        }
    }

    // MARK: Reading

    private func emitSnapshotMethods(into writer: inout SwiftWriter) {
        writer.doc("The object's persisted values now, as a value.")
        emitBuilder(
            "\(access)func snapshot() -> Snapshot",
            first: "if let accessor = managedAccessor { return Self.snapshot(row: accessor) }",
            into: &writer, read: unmanagedRead)
        writer.line()
        writer.doc("The snapshot of a managed `\(model.name)`, read straight from its row.")
        emitBuilder(
            "\(hookAccess)static func snapshot(row accessor: any ManagedObjectAccessor) -> Snapshot",
            into: &writer, read: { rowRead($0, from: "accessor", cursor: false) })
        writer.line()
        writer.doc(
            "The snapshot of the `\(model.name)` a cursor over its table is on, read from the columns of the cluster "
                + "that holds it (what `results.snapshots()` calls per object).")
        emitBuilder(
            "\(hookAccess)static func snapshot(cursor: SnapshotRowCursor) -> Snapshot",
            into: &writer, read: { rowRead($0, from: "cursor", cursor: true) })
    }

    /// Emits a function `signature` that builds a `Snapshot` from each persisted property's `read` expression,
    /// after an optional `first` line (an early return); a model without persisted properties returns an empty one.
    private func emitBuilder(
        _ signature: String, first: String? = nil, into writer: inout SwiftWriter,
        read: (GeneratedProperty) -> String
    ) {
        writer.block(signature) { body in
            if persisted.isEmpty {
                body.line("Snapshot()")
                return
            }
            if let first { body.line(first) }
            body.line("var snapshot = Snapshot()")
            for property in persisted {
                body.line("snapshot.\(property.name) = \(read(property))")
            }
            body.line("return snapshot")
        }
    }

    // MARK: Writing

    private func emitInitializer(into writer: inout SwiftWriter) {
        writer.doc(
            "Creates an unmanaged `\(model.name)` holding `snapshot`'s values; add it to a database, with an update "
                + "policy to update the stored object with the same primary key. Its links name stored objects, "
                + "which adding it looks up (a key no stored object has fails the write).")
        writer.block("\(access)convenience init(snapshot: Snapshot)") { body in
            body.line("self.init()")
            for property in persisted {
                body.line("self.\(property.name) = \(assignment(property))")
            }
        }
    }

    // MARK: Per property

    /// What a link to `target` is held as: the target's snapshot for an embedded model, else its key's type.
    private enum LinkForm {
        case embedded(String)
        case key(type: String, read: (String) -> String, unmanaged: (String) -> String)
    }

    private func linkForm(_ target: String) -> LinkForm {
        let targetName = SwiftIdentifier.escaped(target)
        guard let definition = schema.models.first(where: { $0.name == target }) else {
            return .key(type: "StableObjectKey", read: { "SnapshotSupport.stableKey(of: \($0))" },
                        unmanaged: { "SnapshotSupport.stableKey(of: \($0))" })
        }
        if definition.isEmbedded { return .embedded(targetName) }
        guard let keyName = definition.primaryKey, let key = definition.property(named: keyName),
            let column = definition.persistedProperties.firstIndex(where: { $0.name == keyName })
        else {
            return .key(type: "StableObjectKey", read: { "SnapshotSupport.stableKey(of: \($0))" },
                        unmanaged: { "SnapshotSupport.stableKey(of: \($0))" })
        }
        let type = SwiftType.name(of: key.type, enumName: nil)
        return .key(
            type: type,
            read: { AccessorCall.read(key.type, from: $0, at: column, enumName: nil, fallback: "") },
            unmanaged: { "\($0).\(SwiftIdentifier.escaped(keyName))" })
    }

    /// The element form of a collection or link: `(type, row read of one accessor, unmanaged read, assignment)`.
    private func elementType(_ element: PropertyType, _ property: GeneratedProperty) -> String {
        switch element {
        case .link(let target), .optional(.link(let target)):
            switch linkForm(target) {
            case .embedded(let name): return "\(name).Snapshot"
            case .key(let type, _, _): return type
            }
        case .any: return "AnyValue.Snapshot"
        default: return SwiftType.name(of: element, enumName: property.enumTypeName)
        }
    }

    /// The type of the property in the snapshot.
    func snapshotType(_ property: GeneratedProperty) -> String {
        switch property.definition.type {
        case .link, .optional(.link): return elementType(property.definition.type, property) + "?"
        case .list(let element), .set(let element): return "[\(elementType(element, property))]"
        case .map(let element):
            let value = elementType(element, property)
            return element.linkedModel != nil ? "[String: \(value)?]" : "[String: \(value)]"
        case .any: return "AnyValue.Snapshot"
        default: return property.swiftType()
        }
    }

    private func snapshotDefault(_ property: GeneratedProperty) -> String {
        switch property.definition.type {
        case .link, .optional(.link): return "nil"
        case .list, .set: return "[]"
        case .map: return "[:]"
        case .any: return ".none"
        default: return property.isAutoIncrementedKey ? "0" : property.parameterDefault
        }
    }

    /// The property's snapshot value read through `accessor`: a managed row, or (`cursor`) a
    /// `SnapshotRowCursor`, whose collections read as arrays and dictionaries of values rather than live ones.
    private func rowRead(_ property: GeneratedProperty, from accessor: String, cursor: Bool) -> String {
        let column = property.column ?? 0
        switch property.definition.type {
        case .link(let target), .optional(.link(let target)):
            return "\(accessor).linkedAccessor(at: \(column)).map { \(rowElement(target, "$0")) }"
        case .list(.link(let target)), .set(.link(let target)), .list(.optional(.link(let target))):
            return "\(accessor).linkedAccessors(at: \(column)).map { \(rowElement(target, "$0")) }"
        case .map(.link(let target)), .map(.optional(.link(let target))):
            return "\(accessor).linkedAccessorMap(at: \(column)).mapValues { $0.map { \(rowElement(target, "$0")) } }"
        case .list(.any) where cursor, .set(.any) where cursor:
            return "\(accessor).elements(at: \(column), of: AnyValue.self).map(AnyValue.Snapshot.init)"
        case .map(.any) where cursor:
            return "\(accessor).entries(at: \(column), of: AnyValue.self).mapValues(AnyValue.Snapshot.init)"
        case .list(let element) where cursor, .set(let element) where cursor:
            return "\(accessor).elements(at: \(column), of: \(elementType(element, property)).self)"
        case .map(let element) where cursor:
            return "\(accessor).entries(at: \(column), of: \(elementType(element, property)).self)"
        case .list(.any):
            return "\(accessor).list(at: \(column), of: AnyValue.self).map(AnyValue.Snapshot.init)"
        case .set(.any):
            return "\(accessor).mutableSet(at: \(column), of: AnyValue.self).map(AnyValue.Snapshot.init)"
        case .map(.any):
            return "Dictionary(uniqueKeysWithValues: \(accessor).map(at: \(column), of: AnyValue.self).map { "
                + "($0.key, AnyValue.Snapshot($0.value)) })"
        case .list(let element):
            return "Array(\(accessor).list(at: \(column), of: \(elementType(element, property)).self))"
        case .set(let element):
            return "Array(\(accessor).mutableSet(at: \(column), of: \(elementType(element, property)).self))"
        case .map(let element):
            return "Dictionary(uniqueKeysWithValues: \(accessor).map(at: \(column), of: "
                + "\(elementType(element, property)).self).map { ($0.key, $0.value) })"
        case .any:
            return "AnyValue.Snapshot(\(accessor).anyValue(at: \(column)))"
        default:
            return property.managedRead(accessor)
        }
    }

    private func rowElement(_ target: String, _ accessor: String) -> String {
        switch linkForm(target) {
        case .embedded(let name): return "\(name).snapshot(row: \(accessor))"
        case .key(_, let read, _): return read(accessor)
        }
    }

    private func unmanagedElement(_ target: String, _ object: String) -> String {
        switch linkForm(target) {
        case .embedded: return "\(object).snapshot()"
        case .key(_, _, let read): return read(object)
        }
    }

    /// The property's snapshot value read from the (unmanaged) object's own properties.
    private func unmanagedRead(_ property: GeneratedProperty) -> String {
        let name = property.name
        switch property.definition.type {
        case .link(let target), .optional(.link(let target)):
            return "\(name).map { \(unmanagedElement(target, "$0")) }"
        case .list(.link(let target)), .set(.link(let target)), .list(.optional(.link(let target))):
            return "\(name).map { \(unmanagedElement(target, "$0")) }"
        case .map(.link(let target)), .map(.optional(.link(let target))):
            return "Dictionary(uniqueKeysWithValues: \(name).map { ($0.key, $0.value.map { "
                + "\(unmanagedElement(target, "$0")) }) })"
        case .list(.any), .set(.any): return "\(name).map(AnyValue.Snapshot.init)"
        case .map(.any): return "Dictionary(uniqueKeysWithValues: \(name).map { ($0.key, AnyValue.Snapshot($0.value)) })"
        case .list, .set: return "Array(\(name))"
        case .map: return "Dictionary(uniqueKeysWithValues: \(name).map { ($0.key, $0.value) })"
        case .any: return "AnyValue.Snapshot(\(name))"
        default: return name
        }
    }

    /// The value `init(snapshot:)` assigns to the property.
    private func assignment(_ property: GeneratedProperty) -> String {
        let value = "snapshot.\(property.name)"
        switch property.definition.type {
        case .link(let target), .optional(.link(let target)):
            return "\(value).map(\(restore(target)))"
        case .list(.link(let target)), .list(.optional(.link(let target))):
            return "List(\(value).map(\(restore(target))))"
        case .set(.link(let target)):
            return "MutableSet(\(value).map(\(restore(target))))"
        case .map(.link(let target)), .map(.optional(.link(let target))):
            return "Map(\(value).mapValues { $0.map(\(restore(target))) })"
        case .list(.any): return "List(\(value).map(\\.anyValue))"
        case .set(.any): return "MutableSet(\(value).map(\\.anyValue))"
        case .map(.any): return "Map(\(value).mapValues(\\.anyValue))"
        case .list: return "List(\(value))"
        case .set: return "MutableSet(\(value))"
        case .map: return "Map(\(value))"
        case .any: return "\(value).anyValue"
        default: return value
        }
    }

    /// How a link's snapshot value becomes an object: an embedded snapshot a new object, a key a reference.
    private func restore(_ target: String) -> String {
        switch linkForm(target) {
        case .embedded(let name): return "\(name).init(snapshot:)"
        case .key: return "\(SwiftIdentifier.escaped(target)).snapshotReference"
        }
    }
}

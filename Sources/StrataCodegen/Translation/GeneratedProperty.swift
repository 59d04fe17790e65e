import StrataSchema
import StrataSchemaCompiler

/// One schema property translated into the Swift pieces the emitters assemble: its type, its default, and the
/// expressions that read and write it on an unmanaged object, a managed object and an older version's view.
struct GeneratedProperty {
    /// Where the property's value lives.
    enum Storage {
        /// Column `column` of the model's table.
        case persisted(column: Int)
        /// A plain stored property of the class, never persisted.
        case transient
        /// Computed by the store from `model.property`, never stored.
        case linkingObjects(model: String, property: String)
    }

    /// The property as the schema declares it.
    let definition: PropertyDefinition
    /// Where its value lives.
    let storage: Storage
    /// Whether it is an `int` primary key with `default: auto`, assigned the next integer when added.
    let isAutoIncrementedKey: Bool
    /// The name of the nested enum type of an enumeration property (`Status` for `status`).
    let enumTypeName: String?

    /// Translates `definition`, the `column`th persisted property of `model` (or `nil` if not persisted).
    /// `takenEnumNames`: what an enum's nested type may not be called (``EnumNaming/takenNames(in:of:)``).
    init(
        _ definition: PropertyDefinition, column: Int?, in model: ModelDefinition, takenEnumNames: Set<String>
    ) {
        self.definition = definition
        if definition.isTransient {
            storage = .transient
        } else if case .linkingObjects(let source, let property) = definition.type {
            storage = .linkingObjects(model: source, property: property)
        } else {
            // `translate(_:in:)` numbers every persisted property, so `column` is set here.
            storage = .persisted(column: column ?? 0)
        }
        if case .integer = definition.type, definition.defaultValue == .auto, model.primaryKey == definition.name {
            isAutoIncrementedKey = true
        } else {
            isAutoIncrementedKey = false
        }
        if case .enumeration = definition.type.unwrapped {
            // A nested type named like a model or a type the class uses would hide it inside the class, so it
            // gets a suffix.
            enumTypeName = EnumNaming.typeName(forProperty: definition.name, taken: takenEnumNames)
        } else {
            enumTypeName = nil
        }
    }

    /// The property's name as a Swift identifier (a keyword in backticks).
    var name: String { SwiftIdentifier.escaped(definition.name) }

    /// The persisted column, if the property has one.
    var column: Int? {
        if case .persisted(let column) = storage { return column }
        return nil
    }

    /// The enumeration's cases, if the property is one.
    var enumCases: [String]? {
        if case .enumeration(let cases) = definition.type.unwrapped { return cases }
        return nil
    }

    // MARK: Types

    /// The declared Swift type: `String`, `Date?`, `List<Loan>`, `Status`, `LinkingObjects<Member>`.
    /// `modelPrefix` qualifies model names (`Library.V2.`) in the views of older versions.
    func swiftType(modelPrefix: String = "") -> String {
        SwiftType.name(of: definition.type, enumName: enumTypeName, modelPrefix: modelPrefix)
    }

    /// The type of the initializer's parameter: lists and sets are taken as arrays, maps as dictionaries, an auto
    /// key as an optional.
    var parameterType: String {
        if isAutoIncrementedKey { return swiftType() + "?" }
        return collectionValueType() ?? swiftType()
    }

    /// `[Element]` for a list or set, `[String: Value]` for a map, `nil` for any other type: how the initializer
    /// takes a collection, and how an older version's view shows it.
    private func collectionValueType(modelPrefix: String = "") -> String? {
        guard let element = SwiftType.collectionElementName(
            of: definition.type, enumName: enumTypeName, modelPrefix: modelPrefix)
        else { return nil }
        if case .map = definition.type { return "[String: \(element)]" }
        return "[\(element)]"
    }

    /// The type the unmanaged value is kept in.
    var unmanagedType: String {
        isAutoIncrementedKey ? swiftType() + "?" : swiftType()
    }

    // MARK: Defaults

    /// The default of the initializer's parameter: the `default:` or the type's zero value.
    var parameterDefault: String {
        if isAutoIncrementedKey { return "nil" }
        switch definition.type {
        case .list, .set: return "[]"
        case .map: return "[:]"
        default: break
        }
        return SwiftType.defaultExpression(for: definition, enumCases: enumCases)
    }

    /// The initial unmanaged value, used before the initializer runs and for managed instances.
    var unmanagedDefault: String {
        if isAutoIncrementedKey { return "nil" }
        switch definition.type {
        case .list: return "List()"
        case .set: return "MutableSet()"
        case .map: return "Map()"
        default: break
        }
        return SwiftType.defaultExpression(for: definition, enumCases: enumCases)
    }

    /// Turns the initializer's parameter into the unmanaged value.
    var unmanagedFromParameter: String {
        switch definition.type {
        case .list: return "List(\(name))"
        case .set: return "MutableSet(\(name))"
        case .map: return "Map(\(name))"
        default: return name
        }
    }

    // MARK: Reading and writing

    /// The value of an unmanaged object.
    var unmanagedRead: String {
        isAutoIncrementedKey ? "unmanaged.\(name) ?? 0" : "unmanaged.\(name)"
    }

    /// Stores `newValue` in an unmanaged object (a list, set or map keeps its own instance and copies the
    /// elements).
    var unmanagedWrite: String {
        switch definition.type {
        case .list: return "unmanaged.\(name) = List(newValue)"
        case .set: return "unmanaged.\(name) = MutableSet(newValue)"
        case .map: return "unmanaged.\(name) = Map(newValue)"
        default: return "unmanaged.\(name) = newValue"
        }
    }

    /// Reads the column through `accessor`; for links and lists, through the object layer's typed methods.
    func managedRead(_ accessor: String) -> String {
        guard let column else { return "" }
        switch definition.type {
        case .link(let model), .optional(.link(let model)):
            return "\(accessor).link(at: \(column), as: \(SwiftIdentifier.escaped(model)).self)"
        case .list(let element):
            let elementType = SwiftType.elementName(of: element, enumName: enumTypeName)
            return "\(accessor).list(at: \(column), of: \(elementType).self)"
        case .set, .map:
            let elementType = SwiftType.collectionElementName(of: definition.type, enumName: enumTypeName) ?? ""
            var method = "map"
            if case .set = definition.type { method = "mutableSet" }
            return "\(accessor).\(method)(at: \(column), of: \(elementType).self)"
        default:
            return AccessorCall.read(definition.type, from: accessor, at: column, enumName: enumTypeName,
                                    fallback: enumFallback)
        }
    }

    /// A managed object's getter's read of a scalar column, through the object's own typed reads (which call its
    /// row without retaining it); `nil` for links, collections and properties that are not persisted, which read
    /// through the accessor (``managedRead(_:)``).
    var objectRead: String? {
        guard let column else { return nil }
        switch definition.type {
        case .link, .optional(.link), .list, .set, .map, .linkingObjects: return nil
        default:
            return AccessorCall.objectRead(definition.type, at: column, enumName: enumTypeName, fallback: enumFallback)
        }
    }

    /// Writes `newValue` to the column through `accessor`.
    func managedWrite(_ accessor: String) -> String {
        guard let column else { return "" }
        switch definition.type {
        case .link, .optional(.link):
            return "\(accessor).setLink(newValue, at: \(column))"
        case .list:
            return "\(accessor).setList(newValue, at: \(column))"
        case .set:
            return "\(accessor).setMutableSet(newValue, at: \(column))"
        case .map:
            return "\(accessor).setMap(newValue, at: \(column))"
        default:
            return AccessorCall.write(definition.type, to: accessor, at: column)
        }
    }

    /// The value of an older version's view, read through its `accessor`: links and lists of links become views
    /// of the same version, lists become arrays.
    func viewRead(modelPrefix: String) -> String {
        guard let column else { return "" }
        switch definition.type {
        case .link(let model), .optional(.link(let model)):
            return "accessor.linkedAccessor(at: \(column)).map(\(modelPrefix)\(SwiftIdentifier.escaped(model)).init)"
        case .list(.link(let model)), .list(.optional(.link(let model))), .set(.link(let model)):
            return "accessor.linkedAccessors(at: \(column)).map(\(modelPrefix)\(SwiftIdentifier.escaped(model)).init)"
        case .list(let element):
            return "Array(accessor.list(at: \(column), of: \(SwiftType.elementName(of: element, enumName: nil)).self))"
        case .set(let element):
            return "Array(accessor.mutableSet(at: \(column), of: \(SwiftType.elementName(of: element, enumName: nil)).self))"
        case .map(.optional(.link(let model))):
            return "accessor.linkedAccessorMap(at: \(column)).mapValues { $0.map(\(modelPrefix)"
                + "\(SwiftIdentifier.escaped(model)).init) }"
        case .map(let element):
            return "Dictionary(uniqueKeysWithValues: accessor.map(at: \(column), of: "
                + "\(SwiftType.name(of: element, enumName: nil)).self).map { ($0.key, $0.value) })"
        default:
            return managedRead("accessor")
        }
    }

    /// The type of an older version's view of the property.
    func viewType(modelPrefix: String) -> String {
        collectionValueType(modelPrefix: modelPrefix) ?? swiftType(modelPrefix: modelPrefix)
    }

    /// Whether a writable view can set the property (primitives and enumerations; links and lists stay read-only
    /// there, since their targets are views of objects still being migrated).
    var isWritableInView: Bool {
        switch definition.type {
        case .link, .optional(.link), .list, .linkingObjects, .set, .map: return false
        default: return column != nil
        }
    }

    /// The value as a `PersistedValue`, read from an unmanaged object.
    var persistedValue: String {
        switch definition.type {
        case .enumeration: return ".string(unmanaged.\(name).rawValue)"
        case .optional(.enumeration): return "unmanaged.\(name).map(\\.rawValue).persistedValue"
        case .list, .set: return ".list(unmanaged.\(name).map(\\.persistedValue))"
        case .map: return "unmanaged.\(name).persistedEntries"
        default: return "unmanaged.\(name).persistedValue"
        }
    }

    /// The statement that writes the value of an unmanaged object into the row `row` of an add
    /// (`UnmanagedRow`): lists and sets element by element, everything else as its `PersistedValue`.
    var rowWrite: String {
        let column = column ?? 0
        switch definition.type {
        case .list, .set: return "row.write(elements: unmanaged.\(name), at: \(column))"
        default: return "row.write(\(persistedValue), at: \(column))"
        }
    }

    /// The case a managed enumeration reads as when the file holds a raw value the code does not know: the
    /// property's default, or its first case.
    private var enumFallback: String {
        guard let cases = enumCases else { return "" }
        if case .string(let name)? = definition.defaultValue, cases.contains(name) {
            return "." + SwiftIdentifier.escaped(name)
        }
        return "." + SwiftIdentifier.escaped(cases.first ?? "")
    }
}

/// One property of a model in one schema version.
public struct PropertyDefinition: Hashable, Sendable {
    /// The property's name, a Swift identifier.
    public var name: String
    /// Its type.
    public var type: PropertyType
    /// `default:`; `nil` means the type's zero value.
    public var defaultValue: DefaultValue?
    /// `indexed: true`
    public var isIndexed: Bool
    /// `unique: true`: no two objects of the model hold equal values here (nulls never collide); kept by a unique
    /// index, so the property is indexed too.
    public var isUnique: Bool
    /// `onDelete:` on a link, list, set, map or linkingObjects property; `nil` is the default, `nullify`.
    public var deleteRule: DeleteRule?
    /// `renamedFrom:`: the property's name in the previous version.
    public var renamedFrom: String?
    /// `transient: true`: generated as a plain stored var, never persisted.
    public var isTransient: Bool
    /// `doc:`, which becomes the generated doc comment.
    public var doc: String?
    /// Where the property's key is in the file.
    public var location: SourceLocation
    /// `fullText: true` (on `string` and `string?` only): the store keeps a full-text index of the property's text.
    public var isFullText: Bool

    /// Creates a property definition.
    public init(
        name: String, type: PropertyType, defaultValue: DefaultValue? = nil, isIndexed: Bool = false,
        isUnique: Bool = false, renamedFrom: String? = nil, isTransient: Bool = false, doc: String? = nil,
        location: SourceLocation, isFullText: Bool = false, deleteRule: DeleteRule? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isUnique = isUnique
        self.deleteRule = deleteRule
        self.renamedFrom = renamedFrom
        self.isTransient = isTransient
        self.doc = doc
        self.location = location
        self.isFullText = isFullText
    }

    /// Whether the store keeps the property: it is neither transient nor linking objects.
    public var isPersisted: Bool {
        if isTransient { return false }
        if case .linkingObjects = type { return false }
        return true
    }
}

/// One change as a client uploads it.
public struct SyncChange: Codable, Sendable, Hashable {
    /// The client's change number: strictly increasing per client, so a retried batch is applied once.
    public var seq: Int64
    /// The hybrid logical clock reading of the change (`HybridTimestamp`'s wire form); its client part is the
    /// uploading client's id.
    public var hlc: String
    /// The model's name, as the schema files spell it.
    public var model: String
    /// The object's primary key value, or its sync id (a UUID string) for models without a primary key.
    public var object: SyncValue
    /// What the change does.
    public var op: SyncOperation
    /// The property, for every operation but `create` and `delete`.
    public var property: String?
    /// The value: property values by name for `create`, the new value for `set`, `listInsert`, `setAdd`,
    /// `setRemove` and `mapSet`.
    public var value: SyncValue?
    /// The list element's id (unique per list; for example the inserting change's `hlc`).
    public var element: String?
    /// The list element's position identifier: elements sort by position, then by element id, byte by byte.
    public var position: String?
    /// The map key.
    public var key: String?

    /// Creates a change.
    public init(
        seq: Int64, hlc: String, model: String, object: SyncValue, op: SyncOperation, property: String? = nil,
        value: SyncValue? = nil, element: String? = nil, position: String? = nil, key: String? = nil
    ) {
        self.seq = seq
        self.hlc = hlc
        self.model = model
        self.object = object
        self.op = op
        self.property = property
        self.value = value
        self.element = element
        self.position = position
        self.key = key
    }
}

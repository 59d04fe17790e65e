/// The body of `POST /v1/upload`.
public struct UploadRequest: Codable, Sendable, Hashable {
    /// The uploading client's id: stable for one local file, bound to the token's user at its first upload.
    public var clientId: String
    /// The changes, in increasing `seq` order.
    public var changes: [SyncChange]
    /// The number of the client's last change before this batch, when the batch was sent before the answer to the
    /// one carrying that change (docs/SYNC.md, "Sending ahead"): the server applies the batch only once it has
    /// applied every change up to `after`, and otherwise refuses it (412) keeping nothing. `nil` (left out): no
    /// such condition, as before this field existed.
    public var after: Int64?

    /// Creates a request.
    public init(clientId: String, changes: [SyncChange], after: Int64? = nil) {
        self.clientId = clientId
        self.changes = changes
        self.after = after
    }
}

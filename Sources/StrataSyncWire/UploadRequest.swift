/// The body of `POST /v1/upload`.
public struct UploadRequest: Codable, Sendable, Hashable {
    /// The uploading client's id: stable for one local file, bound to the token's user at its first upload.
    public var clientId: String
    /// The changes, in increasing `seq` order.
    public var changes: [SyncChange]

    /// Creates a request.
    public init(clientId: String, changes: [SyncChange]) {
        self.clientId = clientId
        self.changes = changes
    }
}

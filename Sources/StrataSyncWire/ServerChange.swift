/// One change of the change log as `GET /v1/download` returns it.
public struct ServerChange: Codable, Sendable, Hashable {
    /// The change log's sequence number: the order every client applies changes in.
    public var serverSeq: Int64
    /// The client that made the change (a client may skip its own).
    public var clientId: String
    /// The change as its client uploaded it.
    public var change: SyncChange

    /// Creates a log entry.
    public init(serverSeq: Int64, clientId: String, change: SyncChange) {
        self.serverSeq = serverSeq
        self.clientId = clientId
        self.change = change
    }
}

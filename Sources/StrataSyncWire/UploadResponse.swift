/// The answer to an accepted `POST /v1/upload`.
public struct UploadResponse: Codable, Sendable, Hashable {
    /// The highest change number of this client that the server holds: the client may forget every change up to
    /// it.
    public var acknowledged: Int64
    /// How many changes of the batch were new and appended to the change log.
    public var accepted: Int
    /// How many changes of the batch the server already held (a retried batch), skipped.
    public var duplicates: Int
    /// The change log's sequence number of the last change appended (0 when none was).
    public var serverSeq: Int64

    /// Creates a response.
    public init(acknowledged: Int64, accepted: Int, duplicates: Int, serverSeq: Int64) {
        self.acknowledged = acknowledged
        self.accepted = accepted
        self.duplicates = duplicates
        self.serverSeq = serverSeq
    }
}

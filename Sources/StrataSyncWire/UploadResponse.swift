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
    /// Whether the server keeps ``UploadRequest/after`` (docs/SYNC.md, "Sending ahead"): a client may send its next
    /// batch before this one's answer only to a server that says so. `false` when the answer leaves it out (a server
    /// of an earlier version, which would ignore `after` and skip the changes of a batch that arrives late as
    /// duplicates).
    public var keepsOrder: Bool

    /// Creates a response.
    public init(acknowledged: Int64, accepted: Int, duplicates: Int, serverSeq: Int64, keepsOrder: Bool = false) {
        self.acknowledged = acknowledged
        self.accepted = accepted
        self.duplicates = duplicates
        self.serverSeq = serverSeq
        self.keepsOrder = keepsOrder
    }

    private enum CodingKeys: String, CodingKey {
        case acknowledged, accepted, duplicates, serverSeq, keepsOrder
    }

    /// Decodes an answer; one without `keepsOrder` (an earlier server's) does not keep order.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        acknowledged = try container.decode(Int64.self, forKey: .acknowledged)
        accepted = try container.decode(Int.self, forKey: .accepted)
        duplicates = try container.decode(Int.self, forKey: .duplicates)
        serverSeq = try container.decode(Int64.self, forKey: .serverSeq)
        keepsOrder = try container.decodeIfPresent(Bool.self, forKey: .keepsOrder) ?? false
    }
}

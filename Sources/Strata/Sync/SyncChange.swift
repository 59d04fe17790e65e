/// What one change does (docs/SYNC.md, "Protocol", the table of operations).
enum SyncOperation: String, Codable, Sendable, Hashable {
    case create
    case set
    case delete
    case listInsert
    case listRemove
    case setAdd
    case setRemove
    case mapSet
    case mapRemove
}

/// One change as the outbox keeps it and the protocol carries it.
struct SyncChange: Codable, Sendable, Hashable {
    /// The client's change number (from 1, strictly increasing).
    var seq: Int64
    /// The clock reading of the change.
    var hlc: String
    /// The model's name.
    var model: String
    /// The object's primary key value, or its sync id (a UUID string) for a model without a primary key.
    var object: SyncValue
    var op: SyncOperation
    var property: String?
    var value: SyncValue?
    /// A list element's id (the inserting change's `hlc`).
    var element: String?
    /// A list element's position identifier.
    var position: String?
    /// A map key.
    var key: String?
}

/// `POST /v1/upload`'s body.
struct UploadRequest: Encodable {
    var clientId: String
    var changes: [SyncChange]
}

/// `POST /v1/upload`'s answer.
struct UploadResponse: Decodable {
    /// Every change up to this number is applied on the server.
    var acknowledged: Int64
    /// The server's log position after the upload.
    var serverSeq: Int64
}

/// One entry of `GET /v1/download`'s answer.
struct DownloadedChange: Decodable {
    var serverSeq: Int64
    var clientId: String
    var change: SyncChange
}

/// `GET /v1/download`'s answer.
struct DownloadResponse: Decodable {
    var changes: [DownloadedChange]
    /// The next `after`.
    var last: Int64
    /// Whether another page is waiting.
    var more: Bool
}

/// The server's error body, `{"error": {"message": "..."}}`.
struct ServerErrorBody: Decodable {
    struct Detail: Decodable { var message: String }
    var error: Detail
}

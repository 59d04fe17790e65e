/// An error the server answers a request with: an HTTP status and a message that says what was wrong.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure, which decides the HTTP status.
    public enum Kind: Sendable, Hashable {
        /// 400: the request is malformed or a change does not fit the schema.
        case badRequest
        /// 401: no token, or a token that does not verify.
        case unauthorized
        /// 403: the rules refuse the change.
        case forbidden
        /// 409: the client id belongs to another user, or change numbers go backwards.
        case conflict
        /// 412: the batch was sent ahead (`UploadRequest.after`) and the changes before it are not applied yet;
        /// nothing of it was kept, and the client sends it again after the batch before it is answered.
        case predecessorMissing
        /// 503: PostgreSQL cannot be reached now (down, restarting, or the connection was lost); the request
        /// changed nothing that a retry would repeat, and clients retry it after a pause.
        case unavailable
    }

    /// The kind of failure.
    public var kind: Kind
    /// What was wrong, for the client's log.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

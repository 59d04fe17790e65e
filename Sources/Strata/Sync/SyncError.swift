/// A failure of the sync session: the server refused a request (with its HTTP status and message) or could not be
/// reached. ``SyncSession/lastError`` keeps the latest; ``SyncSession/waitForUpload()`` and
/// ``SyncSession/waitForDownload()`` throw it.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status of the server's answer (401: the token was refused; 400, 403, 409: the server refused
    /// the changes, and says why), or `nil` when no answer came (the server is unreachable, the session paused).
    public var status: Int?
    /// What went wrong, in the server's words when it answered.
    public var message: String

    /// An error of `status` saying `message`.
    public init(status: Int?, message: String) {
        self.status = status
        self.message = message
    }

    /// Whether the server refused the token (a new one is needed: ``SyncSession/updateToken(_:)``).
    public var isTokenRefused: Bool { status == 401 }

    /// `sync: 401 token expired`, or `sync: <message>` without a status.
    public var description: String {
        if let status { return "sync: \(status) \(message)" }
        return "sync: \(message)"
    }
}

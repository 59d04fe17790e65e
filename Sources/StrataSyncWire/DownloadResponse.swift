/// The answer to `GET /v1/download?after=SEQ`.
public struct DownloadResponse: Codable, Sendable, Hashable {
    /// The changes the user may see with a sequence number above `after`, in order.
    public var changes: [ServerChange]
    /// The sequence number to pass as `after` next time (the last one examined, even if the rules hid it).
    public var last: Int64
    /// Whether more changes wait beyond this page.
    public var more: Bool

    /// Creates a response.
    public init(changes: [ServerChange], last: Int64, more: Bool) {
        self.changes = changes
        self.last = last
        self.more = more
    }
}

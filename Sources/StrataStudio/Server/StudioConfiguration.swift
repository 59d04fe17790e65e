/// How `strata studio` serves a file: which file, with which key, whether edits are allowed, and where it listens.
public struct StudioConfiguration: Sendable {
    /// The hosts the studio listens on: the loopback interface only, never another one.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "::1"]

    /// The database file.
    public var path: String
    /// The file's 64-byte encryption key, for an encrypted file.
    public var encryptionKey: [UInt8]?
    /// Whether edits are refused (and the file opened read-only).
    public var readOnly: Bool
    /// The address to listen on; only a loopback address is accepted (``StudioServer`` checks).
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int

    /// A configuration for `path`; by default editable, on 127.0.0.1 and a free port.
    public init(path: String, encryptionKey: [UInt8]? = nil, readOnly: Bool = false, host: String = "127.0.0.1",
                port: Int = 0) {
        self.path = path
        self.encryptionKey = encryptionKey
        self.readOnly = readOnly
        self.host = host
        self.port = port
    }
}

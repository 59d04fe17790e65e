/// What `strata-sync serve` is told on its command line.
public struct SyncServerConfiguration: Sendable {
    /// Folders or files with the app's `*.strata.yaml` schema files.
    public var schemaPaths: [String]
    /// `postgres://user:password@host:port/database`.
    public var postgresURL: String
    /// The PostgreSQL schema that holds the server's tables.
    public var databaseSchema: String
    /// The file with the HS256 key tokens are signed with.
    public var jwtKeyFile: String
    /// The rules file.
    public var rulesFile: String
    /// The address to listen on: loopback unless told otherwise.
    public var host: String
    /// The port (0: any free port).
    public var port: Int
    /// The most PostgreSQL connections uploads and downloads use at once (default 40: twenty clients uploading
    /// while as many downloads read); one more listens for other servers' changes.
    public var maximumConnections = 40
    /// How long a request waits for a PostgreSQL connection before it is answered 503 (default 5 s): while
    /// PostgreSQL is down or restarting, clients are told to retry instead of being kept waiting.
    public var connectionTimeout: Duration = .seconds(5)
    /// How many groups of uploads this server applies at once (default 2; docs/SYNC.md, "Group commit"): the uploads
    /// that arrive while that many are in flight wait, and are applied together, in one transaction, by the next.
    public var uploadGroups = 2
    /// How long an HTTP connection may stay silent (no request, or a request whose body stops coming) before the
    /// server closes it (default 75 s, longer than the longest long poll): a client that went away mid-request
    /// holds nothing for good, and a shutdown does not wait on it.
    public var idleTimeout: Duration = .seconds(75)

    /// Creates a configuration.
    public init(
        schemaPaths: [String], postgresURL: String, databaseSchema: String = "public", jwtKeyFile: String,
        rulesFile: String, host: String = "127.0.0.1", port: Int
    ) {
        self.schemaPaths = schemaPaths
        self.postgresURL = postgresURL
        self.databaseSchema = databaseSchema
        self.jwtKeyFile = jwtKeyFile
        self.rulesFile = rulesFile
        self.host = host
        self.port = port
    }
}

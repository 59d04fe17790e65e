import Hummingbird
import Logging
import PostgresNIO

/// The whole server: reads the schemas, rules and key, connects to PostgreSQL, migrates the tables, then serves
/// HTTP until the process is told to stop.
public enum SyncServer {
    /// Builds the application for `configuration`; `run()`ning it serves until SIGINT or SIGTERM.
    /// - Throws: `SyncSchemaError` or `RulesError` when a file is missing or wrong.
    public static func application(
        _ configuration: SyncServerConfiguration, logger: Logger
    ) async throws -> some ApplicationProtocol {
        let schema = try SchemaLoader.load(paths: configuration.schemaPaths)
        let rules = try AccessRules.load(path: configuration.rulesFile)
        try rules.validate(against: schema)
        let verifier = await TokenVerifier(hmacKey: try TokenVerifier.key(fromFile: configuration.jwtKeyFile))
        var postgres = try PostgresURL.configuration(configuration.postgresURL)
        // Uploads hold a connection for their transaction; waiting downloads hold none. One more for `LISTEN`.
        postgres.options.maximumConnections = configuration.maximumConnections + 1
        let client = PostgresClient(configuration: postgres, backgroundLogger: logger)
        let store = SyncStore(
            schema: schema, rules: rules, client: client, databaseSchema: configuration.databaseSchema, logger: logger,
            connectionTimeout: configuration.connectionTimeout, uploadGroupsInFlight: configuration.uploadGroups)
        let routes = SyncRoutes(store: store, verifier: verifier, metrics: SyncMetrics())
        let (seconds, attoseconds) = configuration.idleTimeout.components
        let idle = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        var app = Application(
            router: routes.router(),
            server: .http1(configuration: .init(idleTimeout: idle)),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "strata-sync"),
            services: [client, store.listener()],
            logger: logger)
        app.beforeServerStarts {
            try await store.migrate()
            logger.info(
                "tables ready",
                metadata: [
                    "models": "\(schema.modelNames.joined(separator: ", "))",
                    "schema": "\(configuration.databaseSchema)",
                ])
        }
        return app
    }
}

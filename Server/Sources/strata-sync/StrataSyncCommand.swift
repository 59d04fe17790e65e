import ArgumentParser
import Hummingbird
import Logging
import StrataSyncServer

/// `strata-sync`: the Strata sync server (docs/SYNC.md).
@main
struct StrataSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-sync",
        abstract: "Sync server for Strata apps: PostgreSQL is the store of record.",
        subcommands: [Serve.self])

    /// `strata-sync serve`.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Migrate the tables to the schema files, then serve uploads and downloads over HTTP.")

        @Option(help: "A folder (or file) with the app's *.strata.yaml schema files; repeatable.")
        var schemas: [String]

        @Option(help: "postgres://user:password@host:port/database[?sslmode=require]")
        var postgres: String

        @Option(help: "The PostgreSQL schema that holds the server's tables.")
        var databaseSchema = "public"

        @Option(help: "A file with the HS256 key (at least 32 bytes) that tokens are signed with.")
        var jwtKeyFile: String

        @Option(help: "The rules file (YAML or JSON): who reads and writes which objects.")
        var rules: String

        @Option(help: "The address to listen on; loopback unless told otherwise (0.0.0.0 for every interface).")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on.")
        var port = 8080

        @Option(help: "Seconds a request waits for a PostgreSQL connection before it is answered 503 (retry).")
        var postgresTimeout = 5.0

        @Option(help: "How many groups of uploads are applied at once; uploads arriving meanwhile are grouped.")
        var uploadGroups = 2

        @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
        var logLevel = "info"

        func run() async throws {
            var logger = Logger(label: "strata-sync")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            var configuration = SyncServerConfiguration(
                schemaPaths: schemas, postgresURL: postgres, databaseSchema: databaseSchema, jwtKeyFile: jwtKeyFile,
                rulesFile: rules, host: host, port: port)
            configuration.uploadGroups = max(1, uploadGroups)
            configuration.connectionTimeout = .milliseconds(Int64(max(0.1, postgresTimeout) * 1000))
            do {
                let app = try await SyncServer.application(configuration, logger: logger)
                try await app.runService()
            } catch let error as SyncSchemaError {
                throw ValidationError(error.description)
            } catch let error as RulesError {
                throw ValidationError(error.description)
            }
        }
    }
}

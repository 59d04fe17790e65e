import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Logging
import PostgresNIO
import Strata
import XCTest

@testable import StrataSyncServer

/// A real sync server for the client tests: `SyncServer.application` (migrations, routes, PostgreSQL) on a random
/// loopback port in this process, over a fresh PostgreSQL schema dropped at the end, with the Syncbook schema
/// (Server/Schemas/StrataSyncClientTests) and rules that let every user write notes they own and share topics and
/// memos. Also makes the clients: Strata databases in a temporary folder, syncing through the server.
final class SyncHarness: @unchecked Sendable {
    static let postgresURL =
        ProcessInfo.processInfo.environment["STRATA_SYNC_TEST_POSTGRES"] ?? "postgres://strata:strata@127.0.0.1:5432/strata_test"
    static let key = Array("0123456789abcdef0123456789abcdef-client-tests".utf8)
    static let rules = """
        models:
          SyncNote: { owner: ownerId }
          SyncTopic: { shared: readWrite }
          SyncMemo: { shared: readWrite }
          SyncPlace: { shared: readWrite }
        """

    static let logger: Logger = {
        var logger = Logger(label: "strata-sync-client-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// The folder with the Syncbook schema file, which the app's models are generated from too.
    static var schemaFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schemas/StrataSyncClientTests").path
    }

    let directory: URL
    let databaseSchema: String
    let postgres: PostgresClient
    private(set) var server: URL
    private var databases: [Database] = []

    private init(directory: URL, databaseSchema: String, postgres: PostgresClient) {
        self.directory = directory
        self.databaseSchema = databaseSchema
        self.postgres = postgres
        self.server = URL(string: "http://127.0.0.1:1")!
    }

    /// Points the clients made from now on at `url` (a server the test started itself).
    func setServer(_ url: URL) { server = url }

    /// The key file and rules file the server is started with.
    var keyFile: String { directory.appendingPathComponent("key.txt").path }
    var rulesFile: String { directory.appendingPathComponent("rules.yaml").path }

    /// The server's configuration on `port` (0: any free port).
    func configuration(port: Int) -> SyncServerConfiguration {
        SyncServerConfiguration(
            schemaPaths: [Self.schemaFolder], postgresURL: Self.postgresURL, databaseSchema: databaseSchema,
            jwtKeyFile: keyFile, rulesFile: rulesFile, port: port)
    }

    /// Runs `body` with a harness whose server is running (with its configuration changed by `configure`); drops
    /// the PostgreSQL schema and the files afterwards.
    static func run(
        configure: @escaping @Sendable (inout SyncServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (SyncHarness) async throws -> Void
    ) async throws {
        try await withHarness { harness in
            var configuration = harness.configuration(port: 0)
            configure(&configuration)
            let app = try await SyncServer.application(configuration, logger: logger)
            try await app.test(.live) { client in
                guard let port = client.port else { throw XCTSkip("the live test server has no port") }
                harness.server = URL(string: "http://127.0.0.1:\(port)")!
                try await body(harness)
                harness.closeDatabases()
            }
        }
    }

    /// Runs `body` with a harness (files, PostgreSQL schema) but no server: the test starts its own.
    static func withHarness(_ body: @escaping @Sendable (SyncHarness) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let postgres = PostgresClient(configuration: try postgresConfiguration(), backgroundLogger: logger)
        let schema = "c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let harness = SyncHarness(directory: directory, databaseSchema: schema, postgres: postgres)
        try Data(key).write(to: URL(fileURLWithPath: harness.keyFile))
        try rules.write(toFile: harness.rulesFile, atomically: true, encoding: .utf8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await postgres.run() }
            defer { group.cancelAll() }
            do {
                try await body(harness)
            } catch {
                harness.closeDatabases()
                try? await harness.dropSchema()
                throw error
            }
            harness.closeDatabases()
            try await harness.dropSchema()
        }
    }

    private static func postgresConfiguration() throws -> PostgresClient.Configuration {
        try PostgresURL.configuration(postgresURL)
    }

    private func dropSchema() async throws {
        // STRATA_SYNC_KEEP_SCHEMA=1 keeps the tables of a failing run to look at.
        if ProcessInfo.processInfo.environment["STRATA_SYNC_KEEP_SCHEMA"] == "1" {
            print("kept PostgreSQL schema \(databaseSchema)")
            return
        }
        _ = try await postgres.query(
            PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(databaseSchema) CASCADE"), logger: Self.logger)
    }

    private func closeDatabases() {
        for database in databases { database.syncSession?.pause() }
        databases = []
    }

    /// A token for `user` signed with the server's key (or `key`), expiring in `seconds`.
    static func token(user: String, key: [UInt8] = key, expiresIn seconds: TimeInterval = 3600) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
        return try await keys.sign(
            SyncClaims(sub: user, exp: ExpirationClaim(value: Date().addingTimeInterval(seconds))))
    }

    /// The configuration of client `name`'s file, syncing as `user` (or with `token`).
    func clientConfiguration(_ name: String, token: String, uploadBatchSize: Int = 500) -> Configuration {
        var configuration = Configuration(schema: Syncbook.self)
        configuration.fileURL = directory.appendingPathComponent("\(name).strata")
        configuration.durability = .none
        var sync = SyncConfiguration(server: server, token: token)
        sync.downloadWait = 2
        sync.uploadBatchSize = uploadBatchSize
        sync.maximumBackoff = 0.5
        sync.requestTimeout = 5
        configuration.sync = sync
        return configuration
    }

    /// Opens client `name` (a database confined to `queue`), syncing as `user`.
    func client(_ name: String, user: String = "alice", queue: DispatchQueue, uploadBatchSize: Int = 500) async throws
        -> SyncClient
    {
        let token = try await SyncHarness.token(user: user)
        let configuration = clientConfiguration(name, token: token, uploadBatchSize: uploadBatchSize)
        let database = try queue.sync { try Database(configuration: configuration, queue: queue) }
        queue.sync { databases.append(database) }
        return SyncClient(name: name, database: database, queue: queue)
    }

    /// Rows of `sql`, where `S.` stands for the test's PostgreSQL schema, every column read as text.
    func rows(_ sql: String) async throws -> [[String?]] {
        try await postgres.withConnection { connection in
            try await SQLSession(connection: connection, logger: Self.logger)
                .rows(sql.replacingOccurrences(of: "S.", with: "\"\(databaseSchema)\"."))
        }
    }
}

/// One client device: a database on its own queue, and its sync session.
struct SyncClient: @unchecked Sendable {
    let name: String
    let database: Database
    let queue: DispatchQueue

    var session: SyncSession { database.syncSession! }

    /// Runs `body` with the database on its queue.
    func run<T>(_ body: (Database) throws -> T) rethrows -> T {
        try queue.sync { try body(database) }
    }

    /// Commits `body` in a write transaction on the client's queue.
    func write(_ body: @escaping (Database) throws -> Void) throws {
        try queue.sync { try database.write { try body(database) } }
    }

    /// Uploads everything, then downloads everything.
    func sync() async throws {
        try await session.waitForUpload()
        try await session.waitForDownload()
    }

    /// The client's data in a comparable form: every note, topic and memo with every synced property.
    func contents() -> String {
        queue.sync {
            database.refresh()
            var lines: [String] = []
            for note in database.objects(SyncNote.self).sorted(byKeyPath: "id") {
                lines.append(
                    "note \(note.id) owner=\(note.ownerId) title=\(note.title) count=\(note.count) "
                        + "rating=\(note.rating.map { "\($0)" } ?? "nil") done=\(note.done) "
                        + "due=\(note.due.map { "\($0.timeIntervalSince1970)" } ?? "nil") "
                        + "blob=\(note.blob.map { $0.base64EncodedString() } ?? "nil") "
                        + "ref=\(note.ref?.uuidString ?? "nil") price=\(note.price.map { "\($0)" } ?? "nil") "
                        + "topic=\(note.topic.map { "\($0.code)" } ?? "nil") tags=\(Array(note.tags)) "
                        + "labels=\(Array(note.labels).sorted()) "
                        + "scores=\(note.scores.keys.sorted().map { "\($0):\(note.scores[$0] ?? 0)" })")
            }
            for topic in database.objects(SyncTopic.self).sorted(byKeyPath: "code") {
                lines.append("topic \(topic.code) name=\(topic.name)")
            }
            let memos = database.objects(SyncMemo.self).map { "memo text=\($0.text) steps=\(Array($0.steps))" }
            return (lines + memos.sorted()).joined(separator: "\n")
        }
    }
}

import Foundation
import Logging
import PostgresNIO
import XCTest

@testable import StrataSyncServer

/// The PostgreSQL the tests run against: `STRATA_SYNC_TEST_POSTGRES` (a URL), or the local default when that is
/// unset and a server answers there. Each test gets its own PostgreSQL schema, dropped at the end.
enum TestPostgres {
    /// The URL used when `STRATA_SYNC_TEST_POSTGRES` is unset.
    static let defaultURL = "postgres://strata:strata@127.0.0.1:5432/strata_test"

    static var url: String {
        ProcessInfo.processInfo.environment["STRATA_SYNC_TEST_POSTGRES"] ?? defaultURL
    }

    static let logger: Logger = {
        var logger = Logger(label: "strata-sync-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs `body` with a running client and a fresh PostgreSQL schema name; drops the schema afterwards.
    static func withDatabase(
        _ body: (_ client: PostgresClient, _ schema: String) async throws -> Void
    ) async throws {
        let configuration: PostgresClient.Configuration
        do {
            configuration = try PostgresURL.configuration(url)
        } catch {
            XCTFail("STRATA_SYNC_TEST_POSTGRES is not a postgres:// URL: \(error)")
            throw error
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                _ = try await client.query("SELECT 1", logger: logger)
            } catch {
                let hint =
                    ProcessInfo.processInfo.environment["STRATA_SYNC_TEST_POSTGRES"] == nil
                    ? "STRATA_SYNC_TEST_POSTGRES is unset and no PostgreSQL answers at \(defaultURL)"
                    : "no PostgreSQL answers at STRATA_SYNC_TEST_POSTGRES=\(url)"
                XCTFail(
                    "\(hint): \(String(reflecting: error)). Start one (.ci/run shows how) and set "
                        + "STRATA_SYNC_TEST_POSTGRES=postgres://user:password@host:port/database.")
                throw error
            }
            do {
                try await body(client, schema)
            } catch {
                try? await dropSchema(schema, client)
                throw error
            }
            try await dropSchema(schema, client)
        }
    }

    private static func dropSchema(_ schema: String, _ client: PostgresClient) async throws {
        _ = try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: logger)
    }

    /// Rows of `sql` (every column cast to text by the query).
    static func rows(_ sql: String, _ client: PostgresClient) async throws -> [[String?]] {
        try await client.withConnection { connection in
            try await SQLSession(connection: connection, logger: logger).rows(sql)
        }
    }
}

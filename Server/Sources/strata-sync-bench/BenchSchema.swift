import Foundation
import Logging
import PostgresNIO
import StrataSyncServer

/// The PostgreSQL schema a bench run's server keeps its tables in: a fresh name per run, dropped with everything in
/// it when the run ends, so repeated runs do not pile tables up in the database (`--keep-schema` keeps it).
struct BenchSchema {
    /// The schema's name, `bench_` and 12 hexadecimal digits.
    let name = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()

    /// Drops the schema and its tables and functions on the database at `postgresURL`.
    /// - Throws: the URL's error or PostgreSQL's, said with the schema's name.
    func drop(postgresURL: String, logger: Logger) async throws {
        let client = PostgresClient(configuration: try PostgresURL.configuration(postgresURL), backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                let drop = PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(name) CASCADE")
                _ = try await client.query(drop, logger: logger)
            } catch {
                throw BenchSchemaError(
                    description: "strata-sync-bench: could not drop PostgreSQL schema \(name): "
                        + String(reflecting: error))
            }
        }
    }
}

/// A schema the bench could not drop; the run's figures stand, the tables stay behind.
struct BenchSchemaError: Error, CustomStringConvertible {
    let description: String
}

import Foundation
import NIOSSL
import PostgresNIO

/// Turns a `postgres://user:password@host:port/database?sslmode=...` URL into a `PostgresClient` configuration (the
/// pool) or a `PostgresConnection` configuration (the `LISTEN` connection, which is not the pool's).
/// `sslmode=require` (or `verify-full`) requires TLS; `prefer` tries it; anything else, or nothing, disables it.
public enum PostgresURL {
    /// The client configuration for `url`.
    /// - Throws: `SyncSchemaError` naming what is missing from the URL.
    public static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        let parts = try parse(url)
        let tls: PostgresClient.Configuration.TLS
        switch parts.mode {
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case "prefer": tls = .prefer(.makeClientConfiguration())
        default: tls = .disable
        }
        return PostgresClient.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password,
            database: parts.database, tls: tls)
    }

    /// The configuration of a single connection to `url`.
    /// - Throws: `SyncSchemaError` naming what is missing from the URL; NIOSSL's error when TLS cannot be set up.
    public static func connectionConfiguration(_ url: String) throws -> PostgresConnection.Configuration {
        let parts = try parse(url)
        let tls: PostgresConnection.Configuration.TLS
        switch parts.mode {
        case "require", "verify-ca", "verify-full":
            tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: tls = .disable
        }
        return PostgresConnection.Configuration(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password,
            database: parts.database, tls: tls)
    }

    private static func parse(_ url: String) throws -> (
        host: String, port: Int, user: String, password: String?, database: String?, mode: String
    ) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, !host.isEmpty
        else {
            throw SyncSchemaError("'\(url)' is not a postgres://user:password@host:port/database URL")
        }
        guard let user = components.user, !user.isEmpty else {
            throw SyncSchemaError("the PostgreSQL URL names no user (postgres://USER:password@host/database)")
        }
        let database = String(components.path.drop { $0 == "/" })
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        return (host, components.port ?? 5432, user, components.password, database.isEmpty ? nil : database, mode)
    }
}

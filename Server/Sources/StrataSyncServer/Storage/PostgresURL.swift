import Foundation
import PostgresNIO

/// Turns a `postgres://user:password@host:port/database?sslmode=...` URL into a `PostgresClient` configuration.
/// `sslmode=require` (or `verify-full`) requires TLS; `prefer` tries it; anything else, or nothing, disables it.
public enum PostgresURL {
    /// The client configuration for `url`.
    /// - Throws: `SyncSchemaError` naming what is missing from the URL.
    public static func configuration(_ url: String) throws -> PostgresClient.Configuration {
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
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        case "prefer": tls = .prefer(.makeClientConfiguration())
        default: tls = .disable
        }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: tls)
    }
}

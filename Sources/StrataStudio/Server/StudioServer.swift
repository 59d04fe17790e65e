import Foundation
import Hummingbird
import Logging

/// Strata Studio's web server: the page and its API over one database file, on the loopback interface, behind a
/// random access token (docs/STUDIO.md).
public final class StudioServer: Sendable {
    /// How it serves.
    public let configuration: StudioConfiguration
    /// The file.
    public let database: StudioDatabase
    /// The token every request must carry.
    public let token: AccessToken
    let feed: ChangeFeed

    /// Opens the file for serving. A file that does not open (a missing key, damage) still gets a server, whose
    /// page shows why.
    ///
    /// - Throws: ``StudioError`` when `configuration.host` is not a loopback address: the studio never listens
    ///   where other machines could reach it.
    public init(configuration: StudioConfiguration, token: AccessToken = AccessToken()) throws {
        guard StudioConfiguration.loopbackHosts.contains(configuration.host) else {
            throw StudioError(400, "strata studio listens on the loopback interface only (127.0.0.1 or ::1), not on "
                + "'\(configuration.host)': the page can read and change the file, so no other machine may reach it")
        }
        guard (0...65535).contains(configuration.port) else {
            throw StudioError(400, "port \(configuration.port) is not a TCP port (0 to 65535)")
        }
        self.configuration = configuration
        self.token = token
        self.database = StudioDatabase(
            path: configuration.path, encryptionKey: configuration.encryptionKey, readOnly: configuration.readOnly)
        self.feed = ChangeFeed(store: database.store)
    }

    /// The address of the page on `port`, with the token.
    public func address(port: Int) -> String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)/?\(AccessToken.parameter)=\(token.value)"
    }

    /// Serves until the task is cancelled; calls `ready` with the port once listening.
    public func run(ready: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "strata-studio")
        logger.logLevel = .warning
        let router = StudioRoutes(database: database, token: token, feed: feed).router()
        let app = Application(
            router: router,
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "strata-studio"),
            onServerRunning: { channel in await ready(channel.localAddress?.port ?? 0) },
            logger: logger)
        let feed = self.feed
        try await withTaskCancellationHandler {
            try await app.run()
        } onCancel: {
            feed.stop()
        }
        feed.stop()
    }

    /// Ends the live-update streams (before the server stops) and closes the file.
    public func close() {
        feed.stop()
        database.close()
    }
}

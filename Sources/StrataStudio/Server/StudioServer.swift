import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

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
    /// The service group running the web server while ``run(ready:)`` runs: what ``stop()`` shuts down.
    private let serving = Mutex<ServiceGroup?>(nil)

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

    /// Serves until ``stop()``; calls `ready` with the port once listening.
    ///
    /// Stopping is graceful: the live-update streams end, requests under way are answered, idle connections close,
    /// then `run` returns. (Cancelling the task running it instead tears connections down under SwiftNIO, which
    /// can trap on a connection that is open but idle; use ``stop()``.)
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
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app, successTerminationBehavior: .gracefullyShutdownGroup)],
                logger: logger))
        serving.withLock { $0 = group }
        defer {
            serving.withLock { $0 = nil }
            feed.stop()
        }
        try await withTaskCancellationHandler {
            try await group.run()
        } onCancel: {
            feed.stop()
        }
    }

    /// Stops serving gracefully: ends the live-update streams (which would otherwise keep their requests open),
    /// then shuts the web server down; ``run(ready:)`` returns once its connections are closed.
    public func stop() async {
        feed.stop()
        await serving.withLock { $0 }?.triggerGracefulShutdown()
    }

    /// Ends the live-update streams (before the server stops) and closes the file.
    public func close() {
        feed.stop()
        database.close()
    }
}

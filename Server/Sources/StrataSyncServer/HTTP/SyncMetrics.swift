import Prometheus

/// The counters `GET /metrics` shows in Prometheus's text format. Each server instance has its own registry, so
/// several servers in one process (the tests) do not share counts.
public struct SyncMetrics: Sendable {
    /// The registry the counters live in.
    public let registry = PrometheusCollectorRegistry()
    /// Accepted upload requests.
    let uploads: Counter
    /// Download requests answered.
    let downloads: Counter
    /// Changes appended to the change log.
    let changesAccepted: Counter
    /// Changes sent to clients.
    let changesDownloaded: Counter
    /// Requests refused or failed, by HTTP status.
    private let errors: @Sendable (Int) -> Counter

    /// Creates the counters.
    public init() {
        let registry = self.registry
        uploads = registry.makeCounter(name: "strata_sync_uploads_total", help: "Upload requests accepted.")
        downloads = registry.makeCounter(name: "strata_sync_downloads_total", help: "Download requests answered.")
        changesAccepted = registry.makeCounter(
            name: "strata_sync_changes_accepted_total", help: "Changes appended to the change log.")
        changesDownloaded = registry.makeCounter(
            name: "strata_sync_changes_downloaded_total", help: "Changes sent to clients.")
        errors = { status in
            registry.makeCounter(
                name: "strata_sync_errors_total", labels: [("status", String(status))],
                help: "Requests refused or failed, by HTTP status.")
        }
    }

    /// Counts a refused or failed request.
    func recordError(status: Int) {
        errors(status).increment()
    }

    /// The Prometheus text exposition of every counter.
    public func exposition() -> String {
        registry.emitToString()
    }
}

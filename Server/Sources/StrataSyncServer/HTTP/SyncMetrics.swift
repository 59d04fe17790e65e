import Prometheus

/// The counters (and the one gauge) `GET /metrics` shows in Prometheus's text format. Each server instance has its
/// own registry, so several servers in one process (the tests) do not share counts.
public struct SyncMetrics: Sendable {
    /// The registry the counters live in.
    public let registry = PrometheusCollectorRegistry()
    /// Accepted upload requests.
    let uploads: Counter
    /// Accepted upload requests sent ahead of the answer to the one before (`UploadRequest.after`).
    let uploadsSentAhead: Counter
    /// Download requests answered.
    let downloads: Counter
    /// Changes appended to the change log.
    let changesAccepted: Counter
    /// Changes sent to clients.
    let changesDownloaded: Counter
    /// Download requests holding a long poll open right now (waiting for a change the user may see).
    let longPollsWaiting: Gauge
    /// Requests refused or failed, by HTTP status.
    private let errors: @Sendable (Int) -> Counter

    /// Creates the counters.
    public init() {
        let registry = self.registry
        uploads = registry.makeCounter(descriptor: Self.descriptor("uploads", "Upload requests accepted."))
        uploadsSentAhead = registry.makeCounter(
            descriptor: Self.descriptor(
                "uploads_sent_ahead", "Upload requests accepted that were sent before the previous one's answer."))
        downloads = registry.makeCounter(descriptor: Self.descriptor("downloads", "Download requests answered."))
        changesAccepted = registry.makeCounter(
            descriptor: Self.descriptor("changes_accepted", "Changes appended to the change log."))
        changesDownloaded = registry.makeCounter(
            descriptor: Self.descriptor("changes_downloaded", "Changes sent to clients."))
        longPollsWaiting = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "strata", subsystem: "sync", metricName: "long_polls_waiting",
                helpText: "Download requests holding a long poll open."))
        errors = { status in
            registry.makeCounter(
                descriptor: Self.descriptor("errors", "Requests refused or failed, by HTTP status."),
                labels: [("status", String(status))])
        }
    }

    /// Counts a refused or failed request.
    func recordError(status: Int) {
        errors(status).increment()
    }

    private static func descriptor(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "strata", subsystem: "sync", metricName: name, unitName: "total", helpText: help)
    }

    /// The Prometheus text exposition of every counter and gauge.
    public func exposition() -> String {
        registry.emitToString()
    }
}

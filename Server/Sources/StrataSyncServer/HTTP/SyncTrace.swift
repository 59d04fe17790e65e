import Foundation

/// Timestamps of the server's steps for an upload and a download, on standard error, for finding where a change's
/// time goes (docs/SYNC.md, "Performance"): on when the process starts with `STRATA_SYNC_TRACE=1`, otherwise one
/// test of a constant per step. Each line is `sync-trace <microseconds since 1970> server <user> <step>`.
enum SyncTrace {
    /// Whether tracing is on (read once).
    static let isOn = ProcessInfo.processInfo.environment["STRATA_SYNC_TRACE"] == "1"

    /// Writes one line for `step` of a request of `user`.
    static func note(_ step: @autoclosure () -> String, user: String) {
        guard isOn else { return }
        let micros = Int(Date().timeIntervalSince1970 * 1_000_000)
        FileHandle.standardError.write(Data("sync-trace \(micros) server \(user) \(step())\n".utf8))
    }
}

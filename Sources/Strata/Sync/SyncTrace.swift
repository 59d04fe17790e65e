import Foundation

/// Timestamps of a sync session's steps, on standard error, for finding where a change's time goes between a commit
/// and another device's notification (docs/SYNC.md, "Performance"): on when the process starts with
/// `STRATA_SYNC_TRACE=1`, otherwise one test of a constant per step.
///
/// Each line is `sync-trace <microseconds since 1970> <file> <step>`.
enum SyncTrace {
    /// Whether tracing is on (read once).
    static let isOn = ProcessInfo.processInfo.environment["STRATA_SYNC_TRACE"] == "1"

    /// Writes one line for `step` of the session of `path`.
    static func note(_ path: String, _ step: @autoclosure () -> String) {
        guard isOn else { return }
        let micros = Int(Date().timeIntervalSince1970 * 1_000_000)
        let file = (path as NSString).lastPathComponent
        FileHandle.standardError.write(Data("sync-trace \(micros) \(file) \(step())\n".utf8))
    }
}

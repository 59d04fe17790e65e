import Foundation
import Strata
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A `strata-sync-test-client` child process (the executable SwiftPM built beside the tests): a sync client of one
/// file, which prints its download cursor as it goes, for the tests that kill a client.
final class ClientProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var cursors: [Int64] = []

    /// Starts a client of `file` syncing with `server` as `token`'s user.
    init(file: URL, server: URL, token: String) throws {
        guard let executable = ClientProcess.executable else {
            throw XCTSkip("strata-sync-test-client is not built beside the tests (swift build builds it)")
        }
        process.executableURL = executable
        process.arguments = [file.path, server.absoluteString, token]
        let output = Pipe()
        process.standardOutput = output
        let reader = output.fileHandleForReading
        try process.run()
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    if let cursor = Int64(line) { lock.withLock { cursors.append(cursor) } }
                }
            }
        }
    }

    deinit { kill() }

    /// The latest cursor it printed (`nil` before the first).
    var cursor: Int64? { lock.withLock { cursors.last } }

    /// Whether it is still running.
    var isRunning: Bool { process.isRunning }

    /// Kills it at once (SIGKILL: whatever it was doing stops there) and waits for it.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The built executable: `.build/debug/strata-sync-test-client` (or release) of the Server package.
    static var executable: URL? {
        ServerProcess.executable?.deletingLastPathComponent().appendingPathComponent("strata-sync-test-client")
    }
}

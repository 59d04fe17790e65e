import Foundation
import XCTest

/// A `strata-test-helper` child process whose standard output is collected.
final class HelperProcess {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts the helper with `arguments`.
    init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Output read so far by `waitForLines`.
    private var received = ""

    /// Waits for the helper to exit; returns its exit status, standard output and standard error.
    func wait() -> (status: Int32, output: String, errors: String) {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, received + String(decoding: data, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }

    /// Kills the helper with SIGKILL (no chance to clean up) and returns everything it printed.
    func kill() -> String {
        Foundation.kill(process.processIdentifier, SIGKILL)
        return wait().output
    }

    /// Reads output until `count` lines starting with `prefix` have arrived (or the helper exits); returns the
    /// last of them.
    @discardableResult
    func waitForLines(startingWith prefix: String, count: Int = 1) -> String? {
        while true {
            let lines = received.split(separator: "\n", omittingEmptySubsequences: true)
                .filter { $0.hasPrefix(prefix) && received.contains($0 + "\n") }
            if lines.count >= count { return lines.last.map(String.init) }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            received += String(decoding: data, as: UTF8.self)
        }
    }
}

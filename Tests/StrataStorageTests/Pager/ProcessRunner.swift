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

    /// Waits for the helper to exit; returns its exit status, standard output and standard error.
    func wait() -> (status: Int32, output: String, errors: String) {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }

    /// Kills the helper with SIGKILL (no chance to clean up) and returns what it printed.
    func kill() -> String {
        Foundation.kill(process.processIdentifier, SIGKILL)
        return wait().output
    }

    /// Reads output until a line starting with `prefix` arrives; returns that line.
    func waitForLine(startingWith prefix: String) -> String? {
        var buffer = ""
        while true {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            buffer += String(decoding: data, as: UTF8.self)
            if let line = buffer.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
        }
    }
}

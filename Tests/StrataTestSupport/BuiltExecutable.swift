import Foundation
import XCTest

/// One of the package's executables, built by `swift build --build-tests` beside the test bundle, run as a child
/// process by tests that need a second process.
package struct BuiltExecutable {
    /// The executable's file.
    package let url: URL

    /// What a finished run printed and how it ended.
    package struct Outcome {
        /// Standard output.
        package let output: String
        /// Standard error.
        package let errorOutput: String
        /// The exit status, or the signal number when `wasSignalled`.
        package let status: Int32
        /// Whether the process was stopped by a signal (a crash, a failed precondition, a kill).
        package let wasSignalled: Bool
    }

    /// The executable named `name` next to the test bundle.
    ///
    /// - Throws: An `XCTSkip`-free failure naming where it looked, when it was not built.
    package init(named name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
        ] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw BuiltExecutableMissing(name: name, searched: candidates.map(\.path))
        }
        url = found
    }

    /// Starts the executable with `arguments`; read its output through the returned process's pipes.
    package func start(_ arguments: [String]) throws -> (Process, stdout: Pipe, stderr: Pipe) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (process, stdout, stderr)
    }

    /// Runs the executable to its end (killing it after `timeout` seconds) and returns what it printed.
    package func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("stdout")
        let errURL = folder.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return Outcome(
            output: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            errorOutput: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
            status: process.terminationStatus, wasSignalled: process.terminationReason == .uncaughtSignal)
    }
}

/// The executable a test needs was not built.
package struct BuiltExecutableMissing: Error, CustomStringConvertible {
    /// The executable's name.
    package let name: String
    /// Where the test looked.
    package let searched: [String]
    /// What to do.
    package var description: String {
        "\(name) was not built next to the tests (looked in \(searched.joined(separator: ", "))); "
            + "run `swift build --build-tests` first"
    }
}

import Foundation

/// What one command run on a ``ConsumerPackage`` printed (standard output and error, interleaved) and how it ended.
package struct ConsumerPackageResult: CustomStringConvertible {
    /// The process's exit status.
    package let exitCode: Int32
    /// Everything it printed.
    package let output: String

    /// Whether it exited with status 0.
    package var succeeded: Bool { exitCode == 0 }

    /// The exit status and the output, for failure messages.
    package var description: String { "exit code \(exitCode):\n\(output)" }

    /// Runs `executable` with `arguments` in `folder` and waits for it.
    package static func run(
        _ executable: String, _ arguments: [String], in folder: URL
    ) throws -> ConsumerPackageResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read before waiting: a build prints more than a pipe holds.
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ConsumerPackageResult(
            exitCode: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
}

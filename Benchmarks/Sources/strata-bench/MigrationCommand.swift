import ArgumentParser
import Foundation

/// `strata-bench migration`: migrates 1,000,000 objects v1 → v3 (a rename, an added property, two widenings and a
/// custom step) with the package's `strata-migration-helper`, built here in release, and prints objects per second
/// and peak memory. SQLite has no schema migrations of this kind, so there is no ratio.
struct MigrationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migration", abstract: "Migrate 1,000,000 objects v1 → v3; print objects/s and peak memory.")

    @Option(help: "How many objects to migrate.")
    var count = 1_000_000

    func run() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../..").standardizedFileURL
        try launch("/usr/bin/env", ["swift", "build", "-c", "release", "--product", "strata-migration-helper",
                                    "--package-path", root.path])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-migration-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let helper = root.appendingPathComponent(".build/release/strata-migration-helper").path
        try launch(helper, ["bench", directory.appendingPathComponent("ledger.strata").path, "\(count)"])
    }

    private func launch(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus))")
        }
    }
}

import Foundation

/// Runs this executable again as a child for one phase of one engine and reads its figures.
enum ChildProcess {
    static func figures(phase: Phase, engine: EngineKind, directory: URL) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if process.executableURL?.path.contains("/") == false || !FileManager.default.isExecutableFile(
            atPath: process.executableURL?.path ?? "")
        {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = ["phase", phase.rawValue, "--engine", engine.rawValue, "--directory", directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("the \(engine.displayName) \(phase) phase failed (exit \(process.terminationStatus))")
        }
        guard let figures = try? JSONDecoder().decode([String: Double].self, from: data) else {
            throw BenchmarkError("the \(engine.displayName) \(phase) phase printed no figures")
        }
        return figures
    }

    static func encode(_ figures: [String: Double]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(figures), as: UTF8.self)
    }
}

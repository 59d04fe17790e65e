import Foundation

/// Runs this executable again as a child for one phase of one engine and reads its figures.
enum ChildProcess {
    static func figures(phase: Phase, engine: EngineKind, directory: URL) throws -> [String: Double] {
        try figures(
            arguments: ["phase", phase.rawValue, "--engine", engine.rawValue, "--directory", directory.path],
            run: "the \(engine.displayName) \(phase) phase")
    }

    /// Runs this executable with `arguments` in a fresh temporary directory (removed afterwards), passed as
    /// `--directory`, and reads the figures it prints; `run` names the child in errors.
    static func figuresInFreshDirectory(
        named name: String, arguments: [String], run: String
    ) throws -> [String: Double] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try figures(arguments: arguments + ["--directory", directory.path], run: run)
    }

    /// Runs this executable with `arguments` and decodes the JSON figures it prints on stdout.
    static func figures(arguments: [String], run: String) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if process.executableURL?.path.contains("/") == false || !FileManager.default.isExecutableFile(
            atPath: process.executableURL?.path ?? "")
        {
            process.executableURL = Bundle.main.executableURL
        }
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(run) failed (exit \(process.terminationStatus))")
        }
        guard let figures = try? JSONDecoder().decode([String: Double].self, from: data) else {
            throw BenchmarkError("\(run) printed no figures")
        }
        return figures
    }

    /// Each engine's figures for `repeats` rounds, every round starting with the next engine.
    static func rounds<Kind: CaseIterable & Hashable>(
        of kind: Kind.Type, repeats: Int, _ child: (Kind) throws -> [String: Double]
    ) rethrows -> [[Kind: [String: Double]]] where Kind.AllCases: RandomAccessCollection, Kind.AllCases.Index == Int {
        let engines = Array(Kind.allCases)
        var rounds: [[Kind: [String: Double]]] = []
        for round in 0..<max(1, repeats) {
            var figures: [Kind: [String: Double]] = [:]
            for offset in engines.indices {
                let engine = engines[(round + offset) % engines.count]
                figures[engine] = try child(engine)
            }
            rounds.append(figures)
        }
        return rounds
    }

    static func encode(_ figures: [String: Double]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(figures), as: UTF8.self)
    }
}

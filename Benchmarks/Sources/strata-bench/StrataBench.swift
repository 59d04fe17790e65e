import ArgumentParser
import Foundation

/// `strata-bench`: runs W1–W7 for Strata and SQLite, each engine in its own child processes (so that peak
/// memory and cold opens are measured per engine), and prints each figure and the ratio.
@main
struct StrataBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench",
        abstract: "Strata and SQLite side by side on DESIGN.md's workloads.",
        subcommands: [Compare.self, Warm.self, Cold.self],
        defaultSubcommand: Compare.self
    )
}

/// The parent: spawns the children, collects their figures, prints medians and ratios.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run every workload on both engines (default).")

    @Flag(help: "Print {\"workloads\": [...]} instead of a table.")
    var json = false

    @Option(help: "Runs per engine; the report shows medians.")
    var repeats = 1

    func run() throws {
        var samples: [EngineKind: [String: [Double]]] = [:]
        for _ in 0..<max(1, repeats) {
            for engine in EngineKind.allCases {
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("strata-bench-\(engine.rawValue)-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                for phase in ["warm", "cold"] {
                    let figures = try ChildProcess.figures(phase: phase, engine: engine, directory: directory)
                    for (id, value) in figures { samples[engine, default: [:]][id, default: []].append(value) }
                }
            }
        }
        let report = Report(samples: samples)
        print(json ? report.json : report.table)
    }
}

/// A child: W1–W5 and W7 for one engine, figures as JSON on stdout.
struct Warm: ParsableCommand {
    static let configuration = CommandConfiguration(shouldDisplay: false)
    @Option var engine: EngineKind
    @Option var directory: String

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let figures = try engine.run { try $0.runWarm(in: url) }
        print(try ChildProcess.encode(figures))
    }
}

/// A child: W6, the cold open, for one engine.
struct Cold: ParsableCommand {
    static let configuration = CommandConfiguration(shouldDisplay: false)
    @Option var engine: EngineKind
    @Option var directory: String

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let figures = try engine.run { try $0.runCold(in: url) }
        print(try ChildProcess.encode(figures))
    }
}

extension BenchmarkEngine {
    static func runWarm(in directory: URL) throws -> [String: Double] {
        try WorkloadRunner<Self>(directory: directory).runWarm()
    }

    static func runCold(in directory: URL) throws -> [String: Double] {
        try WorkloadRunner<Self>(directory: directory).runCold()
    }
}

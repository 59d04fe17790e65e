import ArgumentParser
import Foundation

/// `strata-bench`: runs W1–W7 for Strata and SQLite, each engine in its own child processes (so that peak
/// memory and cold opens are measured per engine), and prints each figure and the ratio.
@main
struct StrataBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench",
        abstract: "Strata and SQLite side by side on the workloads of docs/BENCHMARKS.md.",
        subcommands: [
            Compare.self, CompilerCommand.self, ListsCommand.self, MigrationCommand.self, ModelCommand.self,
            ModelPhaseCommand.self, NotificationsCommand.self, PhaseCommand.self, ProfileCommand.self,
            SearchCommand.self, StudioBenchCommand.self, TrackingCommand.self, IntegrityCommand.self, IntegrityPhaseCommand.self,
            ValuesCommand.self,
        ],
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

    /// Each repeat runs every phase for every engine, phase by phase (so that one workload's figures for the
    /// engines are taken minutes apart at most, not a whole repeat apart), starting each phase with another
    /// engine in turn. The report's ratios pair the figures of one repeat.
    func run() throws {
        var runs: [[EngineKind: [String: Double]]] = []
        var apiCosts: [[String: Double]] = []
        let engines = EngineKind.allCases
        for round in 0..<max(1, repeats) {
            let directories = try Dictionary(uniqueKeysWithValues: engines.map { engine in
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("strata-bench-\(engine.rawValue)-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                return (engine, directory)
            })
            defer { for directory in directories.values { try? FileManager.default.removeItem(at: directory) } }
            var figures: [EngineKind: [String: Double]] = [:]
            for phase in [Phase.load, .cold, .dropped, .warm, .indexed] {
                for offset in engines.indices {
                    let engine = engines[(round + offset) % engines.count]
                    let measured = try ChildProcess.figures(phase: phase, engine: engine, directory: directories[engine]!)
                    for (id, figure) in measured {
                        let earlier = figures[engine]?[id]
                        figures[engine, default: [:]][id] = Phase.peakFigures.contains(id) ? max(earlier ?? 0, figure) : figure
                    }
                }
            }
            runs.append(figures)
            apiCosts += try apiCostPairs(round: round, directories: directories)
        }
        let report = Report(runs: runs, apiCosts: apiCosts)
        print(json ? report.json : report.table)
    }

    /// The public API's cost over the storage engine on the read workloads, from processes run back to back: each
    /// pair runs the reads on the public API's files and then on the storage engine's (or the other way round,
    /// alternating), seconds apart, where the phases above measure them twenty seconds or more apart. Separate
    /// processes, not one: with a second engine working in the same process (SQLite or Strata's own), Strata's
    /// scans ran a third to nearly half slower here, which would measure the process, not the API.
    private func apiCostPairs(round: Int, directories: [EngineKind: URL]) throws -> [[String: Double]] {
        try (0..<Compare.apiCostPairsPerRepeat).map { pair in
            var figures: [EngineKind: [String: Double]] = [:]
            let order: [EngineKind] = (round + pair) % 2 == 0 ? [.strata, .strataStorage] : [.strataStorage, .strata]
            for engine in order {
                figures[engine] = try ChildProcess.figures(phase: .reads, engine: engine, directory: directories[engine]!)
            }
            let api = figures[.strata] ?? [:], storage = figures[.strataStorage] ?? [:]
            // Storage rate over API rate: how many times longer the API takes for the same work.
            return Dictionary(uniqueKeysWithValues: api.compactMap { id, rate in storage[id].map { (id, $0 / rate) } })
        }
    }

    /// Pairs of read processes per repeat for the API cost.
    static let apiCostPairsPerRepeat = 3
}

/// What a child process measures: `load` is W1 and W7, `cold` is W6 (a fresh process opening the file `load`
/// wrote), `dropped` is W6-dropped (the same with the files dropped from the page cache first), `warm` is W2–W5 and
/// W7 after W5, `indexed` the variants on the model whose `name` is indexed (in a file of their own), `reads` the
/// read-only workloads again on the files the others left.
enum Phase: String, CaseIterable, ExpressibleByArgument {
    case warm
    case cold
    case indexed
    case reads
    case load
    case dropped

    /// Peaks that more than one phase reports (the processes of W1 and of W2–W5): the report keeps the largest.
    static let peakFigures: Set<String> = ["W7-memory", "W7-anon"]
}

/// A child: one phase for one engine, figures as JSON on stdout.
struct PhaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "phase", shouldDisplay: false)
    @Argument var phase: Phase
    @Option var engine: EngineKind
    @Option var directory: String

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let figures = try engine.run { type in
            switch phase {
            case .warm: return try type.runWarm(in: url)
            case .cold: return try type.runCold(in: url)
            case .indexed: return try type.runIndexed(in: url)
            case .reads: return try type.runReads(in: url)
            case .load: return try type.runLoad(in: url)
            case .dropped: return try type.runCold(in: url, dropPageCache: true)
            }
        }
        print(try ChildProcess.encode(figures))
    }
}

extension BenchmarkEngine {
    static func runWarm(in directory: URL) throws -> [String: Double] {
        try WorkloadRunner<Self>(directory: directory).runWarm()
    }

    static func runLoad(in directory: URL) throws -> [String: Double] {
        try WorkloadRunner<Self>(directory: directory).runLoad()
    }

    static func runCold(in directory: URL, dropPageCache: Bool = false) throws -> [String: Double] {
        try WorkloadRunner<Self>(directory: directory).runCold(dropPageCache: dropPageCache)
    }

    static func runReads(in directory: URL) throws -> [String: Double] {
        try WorkloadRunner<Self>(directory: directory).runReads()
    }

    static func runIndexed(in directory: URL) throws -> [String: Double] {
        let own = directory.appendingPathComponent("indexed", isDirectory: true)
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        return try WorkloadRunner<Self>(directory: own).runIndexed()
    }
}

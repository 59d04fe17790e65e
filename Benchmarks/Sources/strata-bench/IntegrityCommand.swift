import ArgumentParser
import Foundation

/// `strata-bench integrity`: inserting sign-ups under a unique email, and deleting parcels whose pieces cascade,
/// in Strata (schema rules `unique: true`, `onDelete: cascade`) and in SQLite (`UNIQUE`, `ON DELETE CASCADE`
/// foreign keys). Each engine runs in a child process of its own, on a fresh directory, every round starting with
/// another engine. Rates are objects per second; the advantage is Strata's rate over SQLite's.
struct IntegrityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "integrity",
        abstract: "Uniqueness and cascading deletes: Strata's schema rules against SQLite's constraints.")

    @Option(help: "Sign-ups to insert; a tenth as many parcels, each with 10 pieces, are deleted.")
    var count = 1_000_000

    @Option(help: "Rounds of the whole command; the report shows medians.")
    var repeats = 1

    @Flag(help: "Print {\"workloads\": [...]} instead of a table.")
    var json = false

    func run() throws {
        var rounds: [[IntegrityEngineKind: [String: Double]]] = []
        let engines = IntegrityEngineKind.allCases
        for round in 0..<max(1, repeats) {
            var figures: [IntegrityEngineKind: [String: Double]] = [:]
            for offset in engines.indices {
                let engine = engines[(round + offset) % engines.count]
                figures[engine] = try child(engine)
            }
            rounds.append(figures)
        }
        let report = IntegrityReport(rounds: rounds, count: count)
        print(json ? report.json : report.table)
    }

    private func child(_ engine: IntegrityEngineKind) throws -> [String: Double] {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-bench-integrity-\(engine.rawValue)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = Bundle.main.executableURL
        process.arguments = [
            "integrity-phase", "--engine", engine.rawValue, "--directory", directory.path, "--count", String(count),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("the \(engine.displayName) integrity run failed (exit \(process.terminationStatus))")
        }
        guard let figures = try? JSONDecoder().decode([String: Double].self, from: data) else {
            throw BenchmarkError("the \(engine.displayName) integrity run printed no figures")
        }
        return figures
    }
}

/// A child of `strata-bench integrity`: one engine, figures as JSON on stdout.
struct IntegrityPhaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "integrity-phase", shouldDisplay: false)
    @Option var engine: IntegrityEngineKind
    @Option var directory: String
    @Option var count: Int

    func run() throws {
        let database = try engine.open(in: URL(fileURLWithPath: directory))
        let parents = max(1, count / 10)
        var figures: [String: Double] = [:]
        var started = DispatchTime.now().uptimeNanoseconds
        try database.insertSignups(count: count)
        figures["I-unique-insert"] = Double(count) / seconds(since: started)
        try database.insertParcels(parents: parents)
        let before = try database.counts()
        try check(before.signups == count && before.parcels == parents
            && before.pieces == parents * IntegrityData.piecesPerParcel, "before the delete: \(before)")
        started = DispatchTime.now().uptimeNanoseconds
        try database.deleteParcels()
        figures["I-cascade"] = Double(parents * (1 + IntegrityData.piecesPerParcel)) / seconds(since: started)
        let after = try database.counts()
        try check(after.signups == count && after.parcels == 0 && after.pieces == 0, "after the delete: \(after)")
        try database.close()
        print(try ChildProcess.encode(figures))
    }

    private func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func check(_ condition: Bool, _ detail: String) throws {
        guard condition else { throw BenchmarkError("\(engine.displayName): wrong counts \(detail)") }
    }
}

/// The engines of `strata-bench integrity`, by command-line name.
enum IntegrityEngineKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    case strata
    case sqlite

    /// Opens the engine's files in `directory` (created empty by the caller).
    func open(in directory: URL) throws -> any IntegrityEngine {
        switch self {
        case .strata: try StrataIntegrityEngine(directory: directory)
        case .sqlite: try SQLiteIntegrityEngine(directory: directory)
        }
    }

    /// Name in the report.
    var displayName: String {
        switch self {
        case .strata: "Strata"
        case .sqlite: "SQLite"
        }
    }
}

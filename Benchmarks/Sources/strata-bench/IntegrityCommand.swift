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
        let rounds = try ChildProcess.rounds(of: IntegrityEngineKind.self, repeats: repeats) { engine in
            try ChildProcess.figuresInFreshDirectory(
                named: "integrity-\(engine.rawValue)",
                arguments: ["integrity-phase", "--engine", engine.rawValue, "--count", String(count)],
                run: "the \(engine.displayName) integrity run")
        }
        let report = IntegrityReport(rounds: rounds, count: count)
        print(json ? report.json : report.table)
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

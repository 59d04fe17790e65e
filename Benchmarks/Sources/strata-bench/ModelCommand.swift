import ArgumentParser
import Foundation

/// `strata-bench model`: a million people, each with an embedded address (its city indexed) and a set of five
/// nicknames, in Strata with the set indexed or not and in SQLite laid out two ways (child tables, JSON columns);
/// then counts by nickname and by city (issue #26). Each engine runs in a child process of its own, on a fresh
/// directory, every round starting with another engine. The advantage columns compare each Strata model with the
/// faster SQLite layout of each row, and with the layout that keeps the same indexes.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Embedded objects and sets: Strata (set indexed or not) against SQLite's child tables and JSON columns.")

    @Option(help: "People to insert.")
    var count = 1_000_000

    @Option(help: "Rounds of queries; each round asks every queried nickname and city once.")
    var runs = 5

    @Option(help: "Rounds of the whole command; the report shows medians.")
    var repeats = 1

    @Flag(help: "Print {\"workloads\": [...]} instead of a table.")
    var json = false

    func run() throws {
        let rounds = try ChildProcess.rounds(of: ModelEngineKind.self, repeats: repeats) { engine in
            try ChildProcess.figuresInFreshDirectory(
                named: "model-\(engine.rawValue)",
                arguments: [
                    "model-phase", "--engine", engine.rawValue, "--count", String(count),
                    "--runs", String(max(1, runs)),
                ],
                run: "the \(engine.displayName) model run")
        }
        let report = ModelReport(rounds: rounds)
        print(json ? report.json : report.table)
    }
}

/// A child of `strata-bench model`: one engine, figures as JSON on stdout.
struct ModelPhaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "model-phase", shouldDisplay: false)
    @Option var engine: ModelEngineKind
    @Option var directory: String
    @Option var count: Int
    @Option var runs: Int

    /// People per insert split (`StrataModelSplits.inserts`): enough for a steady rate, a fraction of the time.
    static let insertSplitCount = 200_000

    func run() throws {
        let url = URL(fileURLWithPath: directory)
        let data = CensusData(count: count)
        // The answers, computed before any timing; every timed query checks its count against them.
        let expected = data.expectedCounts()
        var figures = try measure(data, expected, in: url)
        figures["M-size"] = try Double(directorySize(url)) / 1_048_576
        if engine == .strata {
            figures.merge(try StrataModelSplits.cityIndex(in: url, runs: runs)) { _, new in new }
            let splitCount = min(count, ModelPhaseCommand.insertSplitCount)
            figures.merge(try StrataModelSplits.inserts(count: splitCount, in: url)) { _, new in new }
        }
        print(try ChildProcess.encode(figures))
    }

    /// The timed rows (and Strata's query splits); the engine is closed and released on return.
    private func measure(_ data: CensusData, _ expected: [String: Int], in url: URL) throws -> [String: Double] {
        var figures: [String: Double] = [:]
        let database = try engine.open(in: url)
        var started = DispatchTime.now().uptimeNanoseconds
        try database.insert(data)
        let insertSeconds = seconds(since: started)
        figures["M-insert"] = Double(count) / insertSeconds

        var nicknameTimes: [Double] = []
        var cityTimes: [Double] = []
        for _ in 0..<runs {
            for nickname in CensusData.queriedNicknames {
                started = DispatchTime.now().uptimeNanoseconds
                let found = try database.countNickname(nickname)
                nicknameTimes.append(seconds(since: started))
                try check(found, expected[nickname], "ANY nicknames == \(nickname)")
            }
            for city in CensusData.queriedCities {
                started = DispatchTime.now().uptimeNanoseconds
                let found = try database.countCity(city)
                cityTimes.append(seconds(since: started))
                try check(found, expected[city], "home.city == \(city)")
            }
        }
        figures["M-nickname"] = nicknameTimes.median.map { 1 / $0 }
        figures["M-city"] = cityTimes.median.map { 1 / $0 }
        figures["M-run"] = insertSeconds + nicknameTimes.reduce(0, +) + cityTimes.reduce(0, +)
        if engine == .strata, let strata = database as? StrataModelEngine {
            figures.merge(try StrataModelSplits.queries(on: strata, runs: runs)) { _, new in new }
        }
        try database.close()
        return figures
    }

    private func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func check(_ found: Int, _ expected: Int?, _ query: String) throws {
        guard found == expected else {
            throw BenchmarkError("\(engine.displayName): \(query) counted \(found), expected \(expected ?? -1)")
        }
    }

    private func directorySize(_ url: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.fileSizeKey])
            .reduce(0) { $0 + ((try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }
}

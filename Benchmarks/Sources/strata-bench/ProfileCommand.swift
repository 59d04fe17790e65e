import ArgumentParser
import Foundation

/// `strata-bench profile W3 --engine strata --runs 100`: fills a fresh database (W1, or W1-indexed for the indexed
/// workloads), then repeats one workload, so that `perf record -g` sees mostly that workload. Prints the
/// workload's rate. `W5` and `W5-full` repeat the 10,000 one-value commits of W5 (`.batched`, `.full`): under
/// `valgrind --tool=callgrind --toggle-collect='*updateSalaries*'` they give instructions per commit. `W6` closes the
/// filled file and repeats W6's open-and-count in this process: the open's steady cost, without the first-use costs
/// of a fresh process that W6 itself also pays (profile those across many `phase cold` children instead).
/// `--cold-cache` drops the database's files from the system's page cache before each run of `W5` or `W5-full`:
/// the commits of an app whose file the system has reclaimed, each engine reading what it needs again. From the
/// second run on, the commits reuse the pages the earlier runs freed.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Fill a database, then repeat one workload (for a profiler).")

    /// The workloads that can be repeated.
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case w2 = "W2", w3 = "W3", w4 = "W4", w3Indexed = "W3-indexed", w3Lookup = "W3-lookup"
        case w5 = "W5", w5Full = "W5-full", w6 = "W6"
    }

    @Argument(help: "W2, W3, W4, W3-indexed, W3-lookup, W5, W5-full or W6.")
    var workload: Target

    @Option(help: "strata, strata-storage or sqlite.")
    var engine: EngineKind = .strata

    @Option(help: "How many times to run the workload.")
    var runs = 50

    @Flag(help: "W5 and W5-full: drop the filled files from the page cache before the commits (before each run).")
    var coldCache = false

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-profile-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rate = try engine.run { type in try repeatWorkload(type, directory: directory) }
        if workload == .w5 || workload == .w5Full {
            print(String(format: "%@ %@: %.0f commits/s", engine.displayName, workload.rawValue, rate * Double(EmployeeData.updateCount)))
        } else {
            print(String(format: "%@ %@: %.1f runs/s", engine.displayName, workload.rawValue, rate))
        }
    }

    private func repeatWorkload(_ type: any BenchmarkEngine.Type, directory: URL) throws -> Double {
        if workload == .w6 { return try repeatOpen(type, directory: directory) }
        if coldCache { return try repeatColdCommits(type, directory: directory) }
        let engine = try type.init(directory: directory, durability: workload == .w5Full ? .full : .batched)
        defer { try? engine.close() }
        let indexed = workload == .w3Indexed || workload == .w3Lookup
        if indexed { try engine.insertIndexedEmployees() } else { try engine.insertEmployees() }
        // The same inputs as `compare` (its batches, whole): W4's 100,000 ids, W3-lookup's 10,000 names.
        let ids = LookupBatch.all.flatMap(\.ids)
        let names = NameQueryBatch.all.flatMap(\.names)
        var checksum = 0.0
        let seconds = try measure {
            for _ in 0..<max(1, runs) {
                switch workload {
                case .w2: checksum += Double(try engine.countOlderHired())
                case .w3: checksum += try engine.enumerateTwenties().salarySum
                case .w4: checksum += Double(try engine.lookUpNames(ids: ids))
                case .w3Indexed: checksum += try engine.enumerateIndexedTwenties().salarySum
                case .w3Lookup: checksum += try engine.lookUpIndexedSalaries(names: names)
                case .w5, .w5Full: try engine.checkedUpdateSalaries(updateIDs, workload: workload.rawValue)
                case .w6: break  // repeatOpen
                }
            }
        }
        guard checksum.isFinite else { throw BenchmarkError("the workload read no numbers") }
        return Double(max(1, runs)) / seconds
    }

    /// `--cold-cache`: fills the file; then, before each run of W5's commits, drops the files from the page cache
    /// and opens them again. Times the commits only.
    private func repeatColdCommits(_ type: any BenchmarkEngine.Type, directory: URL) throws -> Double {
        guard workload == .w5 || workload == .w5Full else { throw BenchmarkError("--cold-cache is for W5 and W5-full") }
        let durability: BenchmarkDurability = workload == .w5Full ? .full : .batched
        try fill(type, directory: directory, durability: durability)
        var seconds = 0.0
        for _ in 0..<max(1, runs) {
            try PageCache.drop(directory)
            // Each engine is released before the next drop: a store is shared per file within a process, and one
            // still open keeps its mapped pages.
            let engine = try type.init(directory: directory, durability: durability)
            seconds += try measure { try engine.checkedUpdateSalaries(updateIDs, workload: workload.rawValue) }
            try engine.close()
        }
        return Double(max(1, runs)) / seconds
    }

    /// Runs W1 into the files in `directory` with an engine of its own, closed and released on return: a database
    /// that is only closed (invalidated) keeps the file open, and a later open would share it instead of opening it.
    private func fill(_ type: any BenchmarkEngine.Type, directory: URL, durability: BenchmarkDurability) throws {
        let engine = try type.init(directory: directory, durability: durability)
        try engine.insertEmployees()
        try engine.close()
    }

    /// Fills the file, closes it, then opens it and reads the count `runs` times (each open closes before the next).
    private func repeatOpen(_ type: any BenchmarkEngine.Type, directory: URL) throws -> Double {
        try fill(type, directory: directory, durability: .batched)
        let seconds = try measure {
            for _ in 0..<max(1, runs) {
                let count = try type.openAndCount(directory: directory)
                guard count == EmployeeData.count else {
                    throw BenchmarkError("W6: count \(count) ≠ \(EmployeeData.count)")
                }
            }
        }
        return Double(max(1, runs)) / seconds
    }
}

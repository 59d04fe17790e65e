import Foundation

/// Runs the workloads on one engine in this process and returns each figure by workload id.
struct WorkloadRunner<Engine: BenchmarkEngine> {
    let directory: URL

    /// W1–W5, W7 (after W1 and after W5): everything but the cold open, which needs a fresh process.
    func runWarm() throws -> [String: Double] {
        let anonymous = AnonymousMemorySampler()
        var figures = try runFull()
        // The first engine is gone: a store is shared per file within a process, so reopening with other
        // options needs the first one closed.
        do {
            let batched = try Engine(directory: directory, durability: .batched)
            figures["W5-batched"] = Double(updateIDs.count) / (try measure { try batched.updateSalaries(ids: updateIDs) })
            try batched.close()
        }
        // Measured once the engine is released, as W7 after W1 is: the store closes with its last user.
        figures["W7-after-W5"] = filesMegabytes()
        figures["W7-memory"] = Double(ProcessMemory.peakResidentBytes) / 1_000_000
        if let peak = anonymous.stop() { figures["W7-anon"] = Double(peak) / 1_000_000 }
        return figures
    }

    /// W1–W5 with full durability. W7 is "file size after W1" (docs/BENCHMARKS.md): the engine is closed right after W1
    /// (SQLite folds its WAL into the main file on close), measured, and reopened for W2–W5.
    private func runFull() throws -> [String: Double] {
        var figures: [String: Double] = [:]
        do {
            let writer = try Engine(directory: directory, durability: .full)
            figures["W1"] = Double(EmployeeData.count) / (try measure { try writer.insertEmployees() })
            try writer.close()
        }
        // Measured once the writer is released: the public API's store closes with its last user, and closing
        // cuts the growth a writer takes ahead of need (up to an eighth of the file) off the file's end.
        figures["W7"] = filesMegabytes()

        let engine = try Engine(directory: directory, durability: .full)

        figures.merge(try reads(engine, runs: 10)) { _, new in new }

        figures["W5"] = Double(updateIDs.count) / (try measure { try engine.updateSalaries(ids: updateIDs) })
        try engine.close()
        return figures
    }

    /// W1-indexed, W3-indexed and W3-lookup, in a file holding only the indexed model's objects.
    func runIndexed() throws -> [String: Double] {
        let engine = try Engine(directory: directory, durability: .full)
        let insert = Double(EmployeeData.count) / (try measure { try engine.insertIndexedEmployees() })
        var figures = try indexedReads(engine)
        figures["W1-indexed"] = insert
        try engine.close()
        return figures
    }

    /// The read-only workloads again, on the files `runWarm` and `runIndexed` left in `directory` (the indexed
    /// one in `indexed/`): fewer runs of each, for the API cost's back-to-back processes (`Compare`).
    func runReads() throws -> [String: Double] {
        let engine = try Engine(directory: directory, durability: .full)
        var figures = try reads(engine, runs: 5)
        try engine.close()
        let indexed = try Engine(directory: directory.appendingPathComponent("indexed"), durability: .full)
        figures.merge(try indexedReads(indexed, runs: 5)) { _, new in new }
        try indexed.close()
        return figures
    }

    /// W2, W3 and W4 on an open engine: W2 five times `runs`, W3 `runs` times, W4's ten batches.
    private func reads(_ engine: Engine, runs: Int) throws -> [String: Double] {
        let lookups = LookupBatch.all
        _ = (EmployeeData.expectedW2, EmployeeData.expectedW3)  // the answers, computed before any timing
        return [
            "W2": 1 / (try medianSeconds(runs: runs * 5) { try engine.checkedCountOlderHired() }),
            "W3": 1 / (try medianSeconds(runs: runs) { try engine.checkedEnumerateTwenties() }),
            "W4": Double(lookups[0].ids.count) / (try medianSeconds(of: lookups, engine.checkedLookUpNames)),
        ]
    }

    /// W3-indexed (`runs` times) and W3-lookup (ten batches) on an open engine.
    private func indexedReads(_ engine: Engine, runs: Int = 10) throws -> [String: Double] {
        let queries = NameQueryBatch.all
        _ = EmployeeData.expectedW3
        return [
            "W3-indexed": 1 / (try medianSeconds(runs: runs) { try engine.checkedEnumerateIndexedTwenties() }),
            "W3-lookup": Double(queries[0].names.count) / (try medianSeconds(of: queries, engine.checkedLookUpIndexedSalaries)),
        ]
    }

    /// W6: open the file W1 wrote and read the count, in milliseconds.
    func runCold() throws -> [String: Double] {
        var count = 0
        let seconds = try measure { count = try Engine.openAndCount(directory: directory) }
        guard count == EmployeeData.count else {
            throw BenchmarkError("\(Engine.name) W6: count \(count) ≠ \(EmployeeData.count)")
        }
        return ["W6": seconds * 1000]
    }

    /// The median time of one of `runs` runs of `body`, in seconds. A repeated workload's figure is its median
    /// run, not its total: on a shared machine a stall of a few milliseconds lands in one run and moves the median
    /// little, where it moves a total (and the ratio between two engines measured at different moments) a lot.
    private func medianSeconds(runs: Int, _ body: () throws -> Void) throws -> Double {
        try medianSeconds(of: Array(repeating: (), count: runs)) { _ in try body() }
    }

    /// The median time of `body` over the batches, in seconds.
    private func medianSeconds<Batch>(of batches: [Batch], _ body: (Batch) throws -> Void) throws -> Double {
        try batches.map { batch in try measure { try body(batch) } }.median ?? 0
    }

    /// The engine's files in `directory`, in MB (10^6 bytes).
    private func filesMegabytes() -> Double {
        Double(Engine.files(in: directory).reduce(0) { $0 + fileSize($1) }) / 1_000_000
    }

    private func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

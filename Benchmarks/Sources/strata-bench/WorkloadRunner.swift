import Foundation

/// Runs the workloads on one engine in this process and returns each figure by workload id.
struct WorkloadRunner<Engine: BenchmarkEngine> {
    let directory: URL

    /// W1 and W7 (the file's size right after W1), in a process of its own so that the cold opens (W6, W6-dropped)
    /// run on the file as W1 left it, before W2–W5 touch it. W7 is "file size after W1" (docs/BENCHMARKS.md): the
    /// engine is closed right after W1 (SQLite folds its WAL into the main file on close) and measured.
    func runLoad() throws -> [String: Double] {
        let anonymous = AnonymousMemorySampler()
        var figures: [String: Double] = [:]
        do {
            let writer = try Engine(directory: directory, durability: .full)
            figures["W1"] = Double(EmployeeData.count) / (try measure { try writer.insertEmployees() })
            try writer.close()
        }
        // Measured once the writer is released: the public API's store closes with its last user, and closing
        // cuts the growth a writer takes ahead of need (up to an eighth of the file) off the file's end.
        figures["W7"] = filesMegabytes()
        figures.merge(peakMemory(anonymous)) { _, new in new }
        return figures
    }

    /// W2–W5 on the file `runLoad` wrote, and W7 after W5. W7-memory and W7-anon are this process's peaks; the
    /// parent keeps the larger of these and `runLoad`'s (`Phase.peakFigures`).
    func runWarm() throws -> [String: Double] {
        let anonymous = AnonymousMemorySampler()
        var figures: [String: Double] = [:]
        do {
            let engine = try Engine(directory: directory, durability: .full)
            figures.merge(try reads(engine, runs: 10, afterUpdates: false)) { _, new in new }
            figures["W5"] = Double(updateIDs.count)
                / (try measure { try engine.checkedUpdateSalaries(updateIDs, workload: "W5") })
            try engine.close()
        }
        // The first engine is gone: a store is shared per file within a process, so reopening with other
        // options needs the first one closed.
        do {
            let batched = try Engine(directory: directory, durability: .batched)
            figures["W5-batched"] = Double(updateIDs.count)
                / (try measure { try batched.checkedUpdateSalaries(updateIDs, workload: "W5-batched") })
            try batched.close()
        }
        // Measured once the engine is released, as W7 after W1 is: the store closes with its last user.
        figures["W7-after-W5"] = filesMegabytes()
        figures.merge(peakMemory(anonymous)) { _, new in new }
        return figures
    }

    /// W7-memory and W7-anon of this process so far.
    private func peakMemory(_ anonymous: AnonymousMemorySampler) -> [String: Double] {
        var figures = ["W7-memory": Double(ProcessMemory.peakResidentBytes) / 1_000_000]
        if let peak = anonymous.stop() { figures["W7-anon"] = Double(peak) / 1_000_000 }
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
        var figures = try reads(engine, runs: 5, afterUpdates: true)
        try engine.close()
        let indexed = try Engine(directory: directory.appendingPathComponent("indexed"), durability: .full)
        figures.merge(try indexedReads(indexed, runs: 5)) { _, new in new }
        try indexed.close()
        return figures
    }

    /// W2, W3 and W4 on an open engine: W2 five times `runs`, W3 `runs` times, W4's ten batches. `afterUpdates`:
    /// W5 has changed salaries, which W3 checks the sum of.
    private func reads(_ engine: Engine, runs: Int, afterUpdates: Bool) throws -> [String: Double] {
        let lookups = LookupBatch.all
        // The answers, computed before any timing.
        _ = (EmployeeData.expectedW2, EmployeeData.expectedW3, EmployeeData.expectedW3SalarySum)
        if afterUpdates { _ = EmployeeData.expectedW3SalarySumAfterUpdates }
        return [
            "W2": 1 / (try medianSeconds(runs: runs * 5) { try engine.checkedCountOlderHired() }),
            "W3": 1 / (try medianSeconds(runs: runs) { try engine.checkedEnumerateTwenties(afterUpdates: afterUpdates) }),
            "W4": Double(lookups[0].ids.count) / (try medianSeconds(of: lookups, engine.checkedLookUpNames)),
        ]
    }

    /// W3-indexed (`runs` times) and W3-lookup (ten batches) on an open engine.
    private func indexedReads(_ engine: Engine, runs: Int = 10) throws -> [String: Double] {
        let queries = NameQueryBatch.all
        _ = (EmployeeData.expectedW3, EmployeeData.expectedW3SalarySum)
        return [
            "W3-indexed": 1 / (try medianSeconds(runs: runs) { try engine.checkedEnumerateIndexedTwenties() }),
            "W3-lookup": Double(queries[0].names.count) / (try medianSeconds(of: queries, engine.checkedLookUpIndexedSalaries)),
        ]
    }

    /// W6: open the file W1 wrote and read the count, in milliseconds, in this fresh process. With `dropPageCache`
    /// (W6-dropped), the engine's files are first synced and dropped from the page cache (`posix_fadvise`
    /// `DONTNEED`, outside the timing), so the open reads from the disk.
    func runCold(dropPageCache: Bool = false) throws -> [String: Double] {
        let id = dropPageCache ? "W6-dropped" : "W6"
        if dropPageCache { try PageCache.drop(directory) }
        var count = 0
        let seconds = try measure { count = try Engine.openAndCount(directory: directory) }
        guard count == EmployeeData.count else {
            throw BenchmarkError("\(Engine.name) \(id): count \(count) ≠ \(EmployeeData.count)")
        }
        return [id: seconds * 1000]
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

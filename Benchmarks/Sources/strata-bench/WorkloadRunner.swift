import Foundation

/// Runs the workloads on one engine in this process and returns each figure by workload id.
struct WorkloadRunner<Engine: BenchmarkEngine> {
    let directory: URL

    /// W1–W5, W7 (after W1 and after W5): everything but the cold open, which needs a fresh process.
    func runWarm() throws -> [String: Double] {
        let anonymous = AnonymousMemorySampler()
        var figures = try runFull()
        let updateIDs = EmployeeData.randomIDs(EmployeeData.updateCount, seed: 7)
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

    /// W1–W5 with full durability. W7 is DESIGN.md's "file size after W1": the engine is closed right after W1
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

        let expectedW2 = EmployeeData.expectedW2
        figures["W2"] = 1 / (try medianSeconds(runs: 50) {
            let found = try engine.countOlderHired()
            guard found == expectedW2 else { throw BenchmarkError("\(Engine.name) W2: \(found) ≠ \(expectedW2)") }
        })

        let expectedW3 = EmployeeData.expectedW3
        figures["W3"] = 1 / (try medianSeconds(runs: 10) {
            let found = try engine.enumerateTwenties()
            guard found.count == expectedW3 else { throw BenchmarkError("\(Engine.name) W3: \(found.count) ≠ \(expectedW3)") }
        })

        let lookupIDs = EmployeeData.randomIDs(EmployeeData.lookupCount, seed: 42)
        let lookups = batches(of: lookupIDs).map { batch in
            (ids: batch, nameBytes: batch.reduce(0) { $0 + EmployeeData.name($1).utf8.count })
        }
        figures["W4"] = Double(lookups[0].ids.count) / (try medianSeconds(of: lookups) { batch in
            let length = try engine.lookUpNames(ids: batch.ids)
            guard length == batch.nameBytes else {
                throw BenchmarkError("\(Engine.name) W4: read \(length) bytes of names, expected \(batch.nameBytes)")
            }
        })

        let updateIDs = EmployeeData.randomIDs(EmployeeData.updateCount, seed: 7)
        figures["W5"] = Double(updateIDs.count) / (try measure { try engine.updateSalaries(ids: updateIDs) })
        try engine.close()
        return figures
    }

    /// W1-indexed, W3-indexed and W3-lookup, in a file holding only the indexed model's objects.
    func runIndexed() throws -> [String: Double] {
        var figures: [String: Double] = [:]
        let engine = try Engine(directory: directory, durability: .full)
        figures["W1-indexed"] = Double(EmployeeData.count) / (try measure { try engine.insertIndexedEmployees() })

        let expectedW3 = EmployeeData.expectedW3
        figures["W3-indexed"] = 1 / (try medianSeconds(runs: 10) {
            let found = try engine.enumerateIndexedTwenties()
            guard found.count == expectedW3 else {
                throw BenchmarkError("\(Engine.name) W3-indexed: \(found.count) ≠ \(expectedW3)")
            }
        })

        let ids = EmployeeData.randomIDs(EmployeeData.indexedLookupCount, seed: 99)
        let queries = batches(of: ids).map { batch in
            (names: batch.map(EmployeeData.name), salarySum: batch.reduce(0.0) { $0 + EmployeeData.salary($1) })
        }
        figures["W3-lookup"] = Double(queries[0].names.count) / (try medianSeconds(of: queries) { batch in
            let sum = try engine.lookUpIndexedSalaries(names: batch.names)
            guard sum == batch.salarySum else {
                throw BenchmarkError("\(Engine.name) W3-lookup: salary sum \(sum) ≠ \(batch.salarySum)")
            }
        })
        try engine.close()
        return figures
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

    /// `items` in ten batches of equal size (the lookups' counts are multiples of ten).
    private func batches<Item>(of items: [Item]) -> [[Item]] {
        let size = items.count / 10
        return (0..<10).map { Array(items[$0 * size..<($0 + 1) * size]) }
    }

    private func measure(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The engine's files in `directory`, in MB (10^6 bytes).
    private func filesMegabytes() -> Double {
        Double(Engine.files(in: directory).reduce(0) { $0 + fileSize($1) }) / 1_000_000
    }

    private func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

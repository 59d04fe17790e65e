import ArgumentParser
import Foundation
import Strata

/// `strata-bench lists`: iterating and indexing one stored list of integers at several lengths, per element, to
/// show that reading a list costs the same per element whatever its length (issue #23: a list read element by
/// element once decoded the whole list for each element, so 40,000 elements took 28 s and a million never ended).
///
/// For each length: one object holding a list of that many integers (written once, `.none` durability), then
/// `--runs` rounds of a `for` loop over the whole list (summing it) and of `count` reads at scattered indices. Each
/// round starts from a refreshed database and a new `List`, so the list is read from the file in every round.
/// Prints the median per-element time at each length and its ratio to the shortest length's (1.0 = linear).
struct ListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Per-element time of iterating and indexing a stored list of 10k, 100k, 1M ints.")

    @Option(parsing: .upToNextOption, help: "List lengths to measure.")
    var sizes: [Int] = [10_000, 100_000, 1_000_000]

    @Option(help: "Rounds per length; the figures are medians.")
    var runs = 5

    @Flag(help: "Print {\"workloads\": [...]} instead of a table.")
    var json = false

    func run() throws {
        var rows: [(id: String, size: Int, nanoseconds: Double)] = []
        for size in sizes {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("strata-bench-lists-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let figures = try ListRun(directory: directory, size: size).measure(runs: max(1, runs))
            rows.append(("L-iterate", size, figures.iterate))
            rows.append(("L-index", size, figures.index))
        }
        let smallest = sizes.min() ?? 0
        func ratio(_ row: (id: String, size: Int, nanoseconds: Double)) -> Double? {
            guard let base = rows.first(where: { $0.id == row.id && $0.size == smallest }) else { return nil }
            return row.nanoseconds / base.nanoseconds
        }
        if json {
            let entries: [[String: Any]] = rows.map { row in
                [
                    "id": "\(row.id)-\(row.size)", "unit": "ns/element", "strata": row.nanoseconds,
                    "ratio_to_smallest": ratio(row) ?? NSNull(),
                ]
            }
            let data = try JSONSerialization.data(
                withJSONObject: ["workloads": entries], options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("workload    elements    ns/element   × the \(smallest)-element figure")
        for row in rows {
            print(
                row.id.padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(row.size).padding(toLength: 12, withPad: " ", startingAt: 0)
                    + String(format: "%.1f", row.nanoseconds).padding(toLength: 13, withPad: " ", startingAt: 0)
                    + (ratio(row).map { String(format: "%.2f", $0) } ?? "–"))
        }
        print("linear: the per-element time stays about the same at every length (the last column near 1)")
    }
}

/// One length: the file and its one list.
private struct ListRun {
    let database: Database
    let size: Int

    init(directory: URL, size: Int) throws {
        var configuration = Configuration(schema: Bench.self)
        configuration.fileURL = directory.appendingPathComponent("lists.strata")
        configuration.durability = .none
        database = try Database(configuration: configuration)
        self.size = size
        let series = Series(values: Array(0..<size))
        try database.write { database.add(series) }
    }

    /// Median nanoseconds per element of a whole loop, and of scattered index reads.
    func measure(runs: Int) throws -> (iterate: Double, index: Double) {
        var iterate: [Double] = []
        var index: [Double] = []
        let expected = size * (size - 1) / 2
        for _ in 0..<runs {
            let values = try list()
            var started = DispatchTime.now().uptimeNanoseconds
            var total = 0
            for value in values { total &+= value }
            iterate.append(Double(DispatchTime.now().uptimeNanoseconds - started) / Double(size))
            guard total == expected else { throw BenchmarkError("the list summed to \(total), not \(expected)") }

            let scattered = try list()
            started = DispatchTime.now().uptimeNanoseconds
            total = 0
            // A stride coprime with the length visits every index once, in no order a cache could follow.
            var position = 0
            for _ in 0..<size {
                total &+= scattered[position]
                position = (position + 7_919) % size
            }
            index.append(Double(DispatchTime.now().uptimeNanoseconds - started) / Double(size))
            guard total == expected || size % 7_919 == 0 else {
                throw BenchmarkError("the indexed reads summed to \(total), not \(expected)")
            }
        }
        return (iterate.median ?? 0, index.median ?? 0)
    }

    /// The list, read anew: the database refreshed, so that nothing read before is reused.
    private func list() throws -> List<Int> {
        database.refresh()
        guard let series = database.objects(Series.self).first else { throw BenchmarkError("the series is missing") }
        return series.values
    }
}

/// A row of the report: one of the workloads of docs/BENCHMARKS.md, its unit and which way is better.
struct Workload: Sendable {
    /// `W1` … `W7`, with a suffix where one workload gives two figures.
    let id: String
    /// What the figure counts.
    let unit: String
    /// What the workload does, in a few words.
    let summary: String
    /// Rates are better larger; times and sizes smaller.
    let largerIsBetter: Bool

    /// Every workload in report order.
    static let all: [Workload] = [
        Workload(id: "W1", unit: "obj/s", summary: "insert 1M employees, one transaction", largerIsBetter: true),
        Workload(id: "W2", unit: "q/s", summary: "count age > 50 AND hired", largerIsBetter: true),
        Workload(id: "W3", unit: "q/s", summary: "enumerate 20s with name BEGINSWITH name-1", largerIsBetter: true),
        Workload(
            id: "W3-indexed", unit: "q/s", summary: "W3 with name indexed (index beside SQLite's)", largerIsBetter: true),
        Workload(
            id: "W3-lookup", unit: "q/s", summary: "10k queries name == %@ on the indexed name", largerIsBetter: true),
        Workload(id: "W1-indexed", unit: "obj/s", summary: "W1 into the model with name indexed", largerIsBetter: true),
        Workload(id: "W4", unit: "lookups/s", summary: "100k primary-key lookups reading name", largerIsBetter: true),
        Workload(id: "W5", unit: "tx/s", summary: "10k durable updates (.full / FULL)", largerIsBetter: true),
        Workload(
            id: "W5-batched", unit: "tx/s", summary: "10k updates (.batched / NORMAL)", largerIsBetter: true),
        Workload(
            id: "W6", unit: "ms", summary: "open the file right after W1 in a fresh process, read count",
            largerIsBetter: false),
        Workload(
            id: "W6-dropped", unit: "ms", summary: "W6 with the files dropped from the page cache (posix_fadvise)",
            largerIsBetter: false),
        Workload(id: "W7", unit: "MB", summary: "file size after W1", largerIsBetter: false),
        Workload(
            id: "W7-after-W5", unit: "MB", summary: "file size after W1–W5 (20k update commits' free pages)",
            largerIsBetter: false),
        Workload(id: "W7-memory", unit: "MB", summary: "peak memory of the W1 and W2–W5 processes", largerIsBetter: false),
        Workload(
            id: "W7-anon", unit: "MB", summary: "peak anonymous memory (RssAnon sampled every 5 ms; no mapped file pages)",
            largerIsBetter: false),
    ]

    /// How many times Strata is ahead: > 1 means Strata is better, whichever way the unit points.
    func advantage(strata: Double, sqlite: Double) -> Double {
        guard strata > 0, sqlite > 0 else { return 0 }
        return largerIsBetter ? strata / sqlite : sqlite / strata
    }
}

/// A row of `strata-bench model` (docs/BENCHMARKS.md, "Embedded objects and sets").
struct ModelWorkload: Sendable {
    let id: String
    let unit: String
    /// Whether a larger figure is better (rates) or a smaller one (sizes).
    let higherIsBetter: Bool
    let summary: String

    /// How many times `strata` is ahead of `sqlite`: > 1 when Strata is better, whichever way the unit points.
    func advantage(strata: Double, sqlite: Double) -> Double {
        higherIsBetter ? strata / sqlite : sqlite / strata
    }

    static let all = [
        ModelWorkload(
            id: "M-insert", unit: "objects/s", higherIsBetter: true,
            summary: "insert the people, each with an address and 5 nicknames, in one transaction"),
        ModelWorkload(
            id: "M-nickname", unit: "queries/s", higherIsBetter: true,
            summary: "count ANY nicknames == %@ (5 nicknames in turn); median query"),
        ModelWorkload(
            id: "M-city", unit: "queries/s", higherIsBetter: true,
            summary: "count home.city == %@ (3 cities in turn, city indexed); median query"),
        ModelWorkload(
            id: "M-run", unit: "s", higherIsBetter: false,
            summary: "the whole timed run: the insert and every query of every round (decides SQLite's layout)"),
        ModelWorkload(
            id: "M-size", unit: "MB", higherIsBetter: false,
            summary: "size of the engine's files after the inserts (engine closed)"),
    ]
}

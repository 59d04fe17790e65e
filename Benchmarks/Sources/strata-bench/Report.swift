import Foundation

/// Medians per engine and workload, and the medians of the ratios between engines, printed as a table or as JSON.
///
/// A ratio is the median of the ratios of each repeat, not the ratio of two medians: the figures of one repeat
/// were measured minutes apart, so a slow spell of a shared machine touches both sides of a ratio alike.
struct Report {
    /// Each repeat's figures, by engine and workload id.
    let runs: [[EngineKind: [String: Double]]]
    /// The public API's cost over the storage engine on the read workloads, one entry per pair of back-to-back
    /// processes (`Compare.apiCostPairsPerRepeat` a repeat), by workload id.
    let apiCosts: [[String: Double]]

    private func median(_ engine: EngineKind, _ id: String) -> Double? {
        runs.compactMap { $0[engine]?[id] }.median
    }

    /// The median over repeats of `workload`'s advantage of `engine` over `baseline` (> 1: `engine` ahead).
    private func ratio(_ workload: Workload, _ engine: EngineKind, over baseline: EngineKind) -> Double? {
        runs.compactMap { run in
            guard let figure = run[engine]?[workload.id], let base = run[baseline]?[workload.id] else { return nil }
            return workload.advantage(strata: figure, sqlite: base)
        }.median
    }

    private var rows: [(workload: Workload, strata: Double?, storage: Double?, sqlite: Double?, encrypted: Double?)] {
        Workload.all.map {
            ($0, median(.strata, $0.id), median(.strataStorage, $0.id), median(.sqlite, $0.id), median(.strataEncrypted, $0.id))
        }
    }

    /// A plain-text table with the ratio in the last column.
    var table: String {
        var lines = [
            pad("workload", 12) + pad("unit", 10) + pad("Strata", 12) + pad("storage", 12) + pad("SQLite", 12)
                + pad("advantage", 11) + pad("API cost", 10) + pad("encrypted", 12) + pad("enc. cost", 10),
        ]
        for row in rows {
            let ratio = self.ratio(row.workload, .strata, over: .sqlite)
            // How much the public API costs over the storage engine: 1.0 = nothing, 1.5 = 50 % slower. The
            // back-to-back pairs where there are some (the reads), else each repeat's phases.
            let cost = apiCosts.compactMap { $0[row.workload.id] }.median
                ?? self.ratio(row.workload, .strataStorage, over: .strata)
            // How much encryption costs through the public API: 1.0 = nothing.
            let encryptionCost = self.ratio(row.workload, .strata, over: .strataEncrypted)
            lines.append(
                pad(row.workload.id, 12) + pad(row.workload.unit, 10) + pad(format(row.strata), 12)
                    + pad(format(row.storage), 12) + pad(format(row.sqlite), 12)
                    + pad(ratio.map { String(format: "%.2f×", $0) } ?? "–", 11)
                    + pad(cost.map { String(format: "%.2f×", $0) } ?? "–", 10) + pad(format(row.encrypted), 12)
                    + pad(encryptionCost.map { String(format: "%.2f×", $0) } ?? "–", 10) + row.workload.summary)
        }
        lines.append("Strata: the public API; storage: the storage engine driven directly; SQLite: C API, WAL.")
        lines.append("advantage > 1: Strata ahead of SQLite (rates: Strata/SQLite; times and sizes: SQLite/Strata)")
        lines.append("figures: medians of \(runs.count) run(s); ratios: medians of each run's ratio")
        lines.append("API cost: the public API's figure against the storage engine's (1.00× = no cost); for the reads")
        lines.append("  (W2, W3, W4, W3-indexed, W3-lookup), the median over pairs of processes run back to back")
        lines.append("encrypted: the public API on an encrypted file; enc. cost: its figure against Strata's clear one")
        return lines.joined(separator: "\n")
    }

    /// `{"workloads": [{"id": "W1", "unit": "…", "strata": …, "sqlite": …, "advantage": …, "repeats": {…}}]}`:
    /// the medians, and under `repeats` each repeat's figure per engine (`null` where a repeat has none) and each
    /// back-to-back pair's API cost, so that the spread behind every median is visible.
    var json: String {
        let entries: [[String: Any]] = rows.map { row in
            var entry: [String: Any] = ["id": row.workload.id, "unit": row.workload.unit]
            entry["strata"] = row.strata ?? NSNull()
            entry["strata_storage"] = row.storage ?? NSNull()
            entry["sqlite"] = row.sqlite ?? NSNull()
            entry["strata_encrypted"] = row.encrypted ?? NSNull()
            entry["advantage"] = ratio(row.workload, .strata, over: .sqlite) ?? NSNull()
            var repeats: [String: Any] = [:]
            for engine in EngineKind.allCases {
                repeats[Self.jsonKey(engine)] = runs.map { run -> Any in run[engine]?[row.workload.id] ?? NSNull() }
            }
            repeats["advantage"] = runs.map { run -> Any in
                guard let strata = run[.strata]?[row.workload.id], let sqlite = run[.sqlite]?[row.workload.id] else {
                    return NSNull()
                }
                return row.workload.advantage(strata: strata, sqlite: sqlite)
            }
            let pairs = apiCosts.compactMap { $0[row.workload.id] }
            if !pairs.isEmpty { repeats["api_cost_pairs"] = pairs }
            entry["repeats"] = repeats
            return entry
        }
        let data = (try? JSONSerialization.data(
            withJSONObject: ["workloads": entries], options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// An engine's key in the JSON: `strata`, `strata_storage`, `sqlite`, `strata_encrypted`.
    private static func jsonKey(_ engine: EngineKind) -> String {
        engine.rawValue.replacingOccurrences(of: "-", with: "_")
    }

    private func format(_ value: Double?) -> String {
        guard let value else { return "–" }
        if value >= 100 { return String(format: "%.0f", value) }
        return String(format: "%.2f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

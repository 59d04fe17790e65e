import Foundation

/// The figures of `strata-bench model` by round, engine and row, printed as a table or as JSON. Each row compares
/// Strata with the better of SQLite's two layouts on that row (the median over rounds of each round's ratio).
struct ModelReport {
    let rounds: [[ModelEngineKind: [String: Double]]]

    private func median(_ engine: ModelEngineKind, _ id: String) -> Double? {
        rounds.compactMap { $0[engine]?[id] }.median
    }

    /// Strata's timing splits (`StrataModelSplits`): medians over rounds, by id.
    private var splits: [String: Double] {
        let ids = Set(rounds.flatMap { $0[.strata]?.keys.filter { $0.hasPrefix("split-") } ?? [] })
        return Dictionary(uniqueKeysWithValues: ids.compactMap { id in median(.strata, id).map { (id, $0) } })
    }

    /// The SQLite layout with the better median figure on `workload`.
    private func bestSQLite(_ workload: ModelWorkload) -> ModelEngineKind? {
        let layouts = [ModelEngineKind.sqliteTables, .sqliteJSON].compactMap { layout in
            median(layout, workload.id).map { (layout, $0) }
        }
        return layouts.max { workload.advantage(strata: $1.1, sqlite: $0.1) > 1 }?.0
    }

    private func advantage(_ workload: ModelWorkload, over layout: ModelEngineKind) -> Double? {
        rounds.compactMap { round in
            guard let strata = round[.strata]?[workload.id], let sqlite = round[layout]?[workload.id] else {
                return nil
            }
            return workload.advantage(strata: strata, sqlite: sqlite)
        }.median
    }

    var table: String {
        var lines = [
            pad("workload", 12) + pad("unit", 11) + pad("Strata", 11) + pad("SQL tables", 12) + pad("SQL JSON", 11)
                + pad("vs", 12) + "advantage",
        ]
        for workload in ModelWorkload.all {
            let best = bestSQLite(workload)
            lines.append(
                pad(workload.id, 12) + pad(workload.unit, 11) + pad(format(median(.strata, workload.id)), 11)
                    + pad(format(median(.sqliteTables, workload.id)), 12)
                    + pad(format(median(.sqliteJSON, workload.id)), 11) + pad(best?.displayName ?? "–", 12)
                    + (best.flatMap { advantage(workload, over: $0) }.map { String(format: "%.2f×", $0) } ?? "–"))
        }
        lines.append("SQL tables: address columns, nickname(person_id REFERENCES person, name) indexed on name")
        lines.append("SQL JSON: address and nicknames as JSON text, json_extract index on the city, json_each")
        lines.append("vs: the faster SQLite layout on the row; advantage > 1: Strata ahead of it")
        lines.append("figures: medians of \(rounds.count) round(s); advantage: median of each round's ratio")
        let splits = self.splits
        if !splits.isEmpty {
            lines.append("Strata's splits (-ms: median ms of one query; -us: µs per person inserted; -keys: a count):")
            for (id, value) in splits.sorted(by: { $0.key < $1.key }) {
                lines.append("  " + pad(id, 27) + String(format: "%.2f", value))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `{"workloads": [{"id": "M-insert", "unit": …, "strata": …, "sqlite_tables": …, "sqlite_json": …,
    /// "sqlite_layout": "sqlite-tables", "advantage": …}], "strata_splits": {"split-city-ms": …}}`
    var json: String {
        let entries: [[String: Any]] = ModelWorkload.all.map { workload in
            let best = bestSQLite(workload)
            return [
                "id": workload.id, "unit": workload.unit,
                "strata": median(.strata, workload.id) ?? NSNull(),
                "sqlite_tables": median(.sqliteTables, workload.id) ?? NSNull(),
                "sqlite_json": median(.sqliteJSON, workload.id) ?? NSNull(),
                "sqlite_layout": best?.rawValue ?? NSNull(),
                "advantage": best.flatMap { advantage(workload, over: $0) } ?? NSNull(),
            ]
        }
        let object: [String: Any] = ["workloads": entries, "strata_splits": splits]
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data()
        return String(decoding: data, as: UTF8.self)
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

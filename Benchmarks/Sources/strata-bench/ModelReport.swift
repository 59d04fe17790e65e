import Foundation

/// The figures of `strata-bench model` by round, engine and row, printed as a table or as JSON. Each of Strata's
/// two models is compared with the SQLite layout a SQLite user would pick for this benchmark, the one whose whole
/// run (`M-run`: the insert and every query) is faster, and with the layout that keeps the same indexes (the
/// indexed set with the child table, the plain set with the JSON columns); an advantage is the median over rounds
/// of each round's ratio.
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

    /// The SQLite layout whose whole run (`M-run`) has the shorter median: the one a SQLite user would pick for
    /// this benchmark (one layout holds the data; which one is faster depends on the row, so the run decides).
    private var sqliteLayout: ModelEngineKind? {
        [ModelEngineKind.sqliteTables, .sqliteJSON].compactMap { layout in
            median(layout, "M-run").map { (layout, $0) }
        }.min { $0.1 < $1.1 }?.0
    }

    /// The SQLite layout that keeps the same indexes as Strata's `model`: the child table's indexed name for the
    /// indexed set, the JSON columns (no index serves `json_each`) for the plain set. Both index the city.
    private static func sameIndexes(as model: ModelEngineKind) -> ModelEngineKind {
        model == .strata ? .sqliteTables : .sqliteJSON
    }

    private func advantage(
        _ workload: ModelWorkload, of model: ModelEngineKind, over layout: ModelEngineKind?
    ) -> Double? {
        guard let layout else { return nil }
        return rounds.compactMap { round in
            guard let strata = round[model]?[workload.id], let sqlite = round[layout]?[workload.id] else {
                return nil
            }
            return workload.advantage(strata: strata, sqlite: sqlite)
        }.median
    }

    private static let models: [ModelEngineKind] = [.strata, .strataPlain]

    var table: String {
        var lines = [
            pad("workload", 12) + pad("unit", 11) + pad("Strata", 10) + pad("plain set", 11) + pad("SQL tables", 12)
                + pad("SQL JSON", 10) + pad("vs", 12) + pad("advantage", 11) + pad("plain", 8)
                + "same indexes (Strata/tables, plain/JSON)",
        ]
        let best = sqliteLayout
        for workload in ModelWorkload.all {
            let sameIndexes = Self.models.map { model in
                ratio(advantage(workload, of: model, over: Self.sameIndexes(as: model)))
            }
            lines.append(
                pad(workload.id, 12) + pad(workload.unit, 11) + pad(format(median(.strata, workload.id)), 10)
                    + pad(format(median(.strataPlain, workload.id)), 11)
                    + pad(format(median(.sqliteTables, workload.id)), 12)
                    + pad(format(median(.sqliteJSON, workload.id)), 10) + pad(best?.displayName ?? "–", 12)
                    + pad(ratio(advantage(workload, of: .strata, over: best)), 11)
                    + pad(ratio(advantage(workload, of: .strataPlain, over: best)), 8)
                    + sameIndexes.joined(separator: ", "))
        }
        lines.append("Strata: nicknames an indexed set<string>; plain set: the same without the index (a Realm model)")
        lines.append("SQL tables: address columns, nickname(person_id REFERENCES person, name) indexed on name")
        lines.append("SQL JSON: address and nicknames as JSON text, json_extract index on the city, json_each")
        lines.append(
            "vs: SQLite's layout for this benchmark, the one whose whole run (M-run) is faster; advantage (Strata),"
                + " plain (plain set) > 1: ahead of it")
        lines.append("figures: medians of \(rounds.count) round(s); advantages: median of each round's ratio")
        let splits = self.splits
        if !splits.isEmpty {
            lines.append("Strata's splits (-ms: median ms of one query; -us: µs per person inserted; -keys: a count):")
            for (id, value) in splits.sorted(by: { $0.key < $1.key }) {
                lines.append("  " + pad(id, 27) + String(format: "%.2f", value))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `{"workloads": [{"id": "M-insert", "unit": …, "strata": …, "strata_plain": …, "sqlite_tables": …,
    /// "sqlite_json": …, "sqlite_layout": "sqlite-json", "advantage": …, "plain_advantage": …,
    /// "same_indexes_advantage": …, "plain_same_indexes_advantage": …}], "strata_splits": {"split-city-ms": …}}`
    var json: String {
        let best = sqliteLayout
        let entries: [[String: Any]] = ModelWorkload.all.map { workload in
            [
                "id": workload.id, "unit": workload.unit,
                "strata": median(.strata, workload.id) ?? NSNull(),
                "strata_plain": median(.strataPlain, workload.id) ?? NSNull(),
                "sqlite_tables": median(.sqliteTables, workload.id) ?? NSNull(),
                "sqlite_json": median(.sqliteJSON, workload.id) ?? NSNull(),
                "sqlite_layout": best?.rawValue ?? NSNull(),
                "advantage": advantage(workload, of: .strata, over: best) ?? NSNull(),
                "plain_advantage": advantage(workload, of: .strataPlain, over: best) ?? NSNull(),
                "same_indexes_advantage":
                    advantage(workload, of: .strata, over: Self.sameIndexes(as: .strata)) ?? NSNull(),
                "plain_same_indexes_advantage":
                    advantage(workload, of: .strataPlain, over: Self.sameIndexes(as: .strataPlain)) ?? NSNull(),
            ]
        }
        let object: [String: Any] = ["workloads": entries, "strata_splits": splits]
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func ratio(_ value: Double?) -> String {
        value.map { String(format: "%.2f×", $0) } ?? "–"
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

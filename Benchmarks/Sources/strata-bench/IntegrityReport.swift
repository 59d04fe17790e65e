import Foundation

/// The figures of `strata-bench integrity` by round, engine and row, as a table or as JSON.
struct IntegrityReport {
    let rounds: [[IntegrityEngineKind: [String: Double]]]
    /// `--count`: the sign-ups inserted.
    let count: Int

    /// The rows: id, unit, what is measured.
    static let rows = [
        ("I-unique-insert", "objects/s", "sign-ups inserted with a unique email, one transaction"),
        ("I-cascade", "objects/s", "parcels and their 10 pieces each deleted by the cascade, one transaction"),
    ]

    private func median(_ engine: IntegrityEngineKind, _ id: String) -> Double? {
        rounds.compactMap { $0[engine]?[id] }.median
    }

    /// The median over rounds of Strata's rate over SQLite's (> 1: Strata ahead).
    private func advantage(_ id: String) -> Double? {
        rounds.compactMap { round in
            guard let strata = round[.strata]?[id], let sqlite = round[.sqlite]?[id], sqlite > 0 else { return nil }
            return strata / sqlite
        }.median
    }

    var table: String {
        var lines = [pad("workload", 17) + pad("unit", 11) + pad("Strata", 12) + pad("SQLite", 12) + "advantage"]
        for (id, unit, _) in Self.rows {
            lines.append(pad(id, 17) + pad(unit, 11) + pad(format(median(.strata, id)), 12)
                + pad(format(median(.sqlite, id)), 12) + (advantage(id).map { String(format: "%.2f×", $0) } ?? "–"))
        }
        let parents = max(1, count / 10)
        lines.append("\(count) sign-ups; \(parents) parcels with \(IntegrityData.piecesPerParcel) pieces each")
        for (id, _, text) in Self.rows { lines.append("\(id): \(text)") }
        lines.append("SQLite: email TEXT UNIQUE; piece.parcel_id REFERENCES parcel ON DELETE CASCADE, indexed, "
            + "foreign_keys=ON")
        lines.append("figures: medians of \(rounds.count) round(s); advantage > 1: Strata ahead")
        return lines.joined(separator: "\n")
    }

    /// `{"workloads": [{"id": "I-unique-insert", "unit": "objects/s", "strata": …, "sqlite": …,
    /// "advantage": …}], "count": …}`
    var json: String {
        let entries: [[String: Any]] = Self.rows.map { id, unit, _ in
            [
                "id": id, "unit": unit, "strata": median(.strata, id) ?? NSNull(),
                "sqlite": median(.sqlite, id) ?? NSNull(), "advantage": advantage(id) ?? NSNull(),
            ]
        }
        let object: [String: Any] = ["workloads": entries, "count": count]
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: options)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func format(_ value: Double?) -> String {
        guard let value else { return "–" }
        return value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

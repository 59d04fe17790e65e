import Foundation

/// Medians per engine and workload, printed as a table or as JSON.
struct Report {
    let samples: [EngineKind: [String: [Double]]]

    private func median(_ engine: EngineKind, _ id: String) -> Double? {
        guard let values = samples[engine]?[id], !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
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
            let ratio = row.strata.flatMap { s in row.sqlite.map { row.workload.advantage(strata: s, sqlite: $0) } }
            // How much the public API costs over the storage engine: 1.0 = nothing, 1.5 = 50 % slower.
            let cost = row.strata.flatMap { s in row.storage.map { 1 / row.workload.advantage(strata: s, sqlite: $0) } }
            // How much encryption costs through the public API: 1.0 = nothing.
            let encryptionCost = row.encrypted.flatMap { e in row.strata.map { row.workload.advantage(strata: $0, sqlite: e) } }
            lines.append(
                pad(row.workload.id, 12) + pad(row.workload.unit, 10) + pad(format(row.strata), 12)
                    + pad(format(row.storage), 12) + pad(format(row.sqlite), 12)
                    + pad(ratio.map { String(format: "%.2f×", $0) } ?? "–", 11)
                    + pad(cost.map { String(format: "%.2f×", $0) } ?? "–", 10) + pad(format(row.encrypted), 12)
                    + pad(encryptionCost.map { String(format: "%.2f×", $0) } ?? "–", 10) + row.workload.summary)
        }
        lines.append("Strata: the public API; storage: the storage engine driven directly; SQLite: C API, WAL.")
        lines.append("advantage > 1: Strata ahead of SQLite (rates: Strata/SQLite; times and sizes: SQLite/Strata)")
        lines.append("API cost: the public API's figure against the storage engine's (1.00× = no cost)")
        lines.append("encrypted: the public API on an encrypted file; enc. cost: its figure against Strata's clear one")
        return lines.joined(separator: "\n")
    }

    /// `{"workloads": [{"id": "W1", "unit": "…", "strata": …, "sqlite": …, "advantage": …}]}`
    var json: String {
        let entries: [[String: Any]] = rows.map { row in
            var entry: [String: Any] = ["id": row.workload.id, "unit": row.workload.unit]
            entry["strata"] = row.strata ?? NSNull()
            entry["strata_storage"] = row.storage ?? NSNull()
            entry["sqlite"] = row.sqlite ?? NSNull()
            entry["strata_encrypted"] = row.encrypted ?? NSNull()
            if let s = row.strata, let q = row.sqlite {
                entry["advantage"] = row.workload.advantage(strata: s, sqlite: q)
            } else {
                entry["advantage"] = NSNull()
            }
            return entry
        }
        let data = (try? JSONSerialization.data(
            withJSONObject: ["workloads": entries], options: [.prettyPrinted, .sortedKeys])) ?? Data()
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

/// A short, stable identity of a schema version, recorded in database files so that opening a file with a
/// history that differs from the one that wrote it is refused.
extension SchemaVersion {
    /// 16 lower-case hex digits: the 64-bit FNV-1a hash of `canonicalText`.
    ///
    /// Stable across runs, machines and Swift versions (no `Hasher`, whose seed changes per process). It ignores
    /// `doc:` comments, source locations, `access:` and the order of models and properties in the file, and
    /// covers everything that shapes stored data or the migration into this version.
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonicalText.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The text the fingerprint hashes: one line per fact, models and properties sorted by name, every name
    /// quoted so that no two different versions share a text. Enum cases and compound-index columns keep their
    /// order (the first case is the zero value; column order shapes the index).
    public var canonicalText: String {
        var lines = ["schema \(quoted(schemaName))", "version \(version)"]
        lines.append("removedModels " + removedModels.sorted().map(quoted).joined(separator: ","))
        for model in models.sorted(by: { $0.name < $1.name }) {
            lines.append("model \(quoted(model.name))")
            lines.append(" primaryKey \(model.primaryKey.map(quoted) ?? "-")")
            lines.append(" renamedFrom \(model.renamedFrom.map(quoted) ?? "-")")
            lines.append(" migrate \(model.needsCustomMigration ? "custom" : "-")")
            // Only when set, so that the fingerprints of every schema written before embedded models stay as they were.
            if model.isEmbedded { lines.append(" embedded") }
            lines.append(" removed " + model.removedProperties.sorted().map(quoted).joined(separator: ","))
            let indexes = model.compoundIndexes.map { $0.map(quoted).joined(separator: ",") }.sorted()
            lines.append(" indexes " + indexes.map { "[\($0)]" }.joined(separator: ","))
            // Only when set, as `embedded`: fingerprints of schemas without uniqueness rules stay as they were.
            if !model.uniqueGroups.isEmpty {
                let groups = model.uniqueGroups.map { $0.map(quoted).joined(separator: ",") }.sorted()
                lines.append(" unique " + groups.map { "[\($0)]" }.joined(separator: ","))
            }
            for property in model.properties.sorted(by: { $0.name < $1.name }) {
                var line = " property \(quoted(property.name)) \(canonical(property.type))"
                line += " default=\(property.defaultValue.map(canonical) ?? "-")"
                line += " indexed=\(property.isIndexed) transient=\(property.isTransient)"
                line += " renamedFrom=\(property.renamedFrom.map(quoted) ?? "-")"
                // Only when set, so the fingerprints of versions without full-text indexes stay as they were.
                if property.isFullText { line += " fullText=true" }
                if property.isUnique { line += " unique" }
                // Rules change no data, but a version is what the file records (`strata info` lists its rules):
                // a changed rule goes in a new version, whose plan changes nothing.
                if let rule = property.deleteRule, rule != .nullify { line += " onDelete=\(rule.rawValue)" }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `text` quoted for the canonical form. Deliberately not `SwiftLiteral.string` (another module, and free to
/// change): fingerprints are stored in files, so this spelling must never change.
private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

private func canonical(_ type: PropertyType) -> String {
    switch type {
    case .enumeration(let cases): return "enum(" + cases.map(quoted).joined(separator: ",") + ")"
    case .link(let model): return "link(\(quoted(model)))"
    case .optional(let wrapped): return "optional(\(canonical(wrapped)))"
    case .list(let element): return "list(\(canonical(element)))"
    case .linkingObjects(let model, let property): return "linkingObjects(\(quoted(model)),\(quoted(property)))"
    case .set(let element): return "set(\(canonical(element)))"
    case .map(let element): return "map(\(canonical(element)))"
    default: return type.schemaSpelling
    }
}

private func canonical(_ value: DefaultValue) -> String {
    switch value {
    case .bool(let flag): return "bool(\(flag))"
    case .integer(let number): return "int(\(number))"
    // The bit pattern, not a decimal rendering, so that every machine writes the same text.
    case .double(let number): return "double(\(String(number.bitPattern, radix: 16)))"
    case .string(let text): return "string(\(quoted(text)))"
    case .auto: return "auto"
    case .null: return "null"
    }
}

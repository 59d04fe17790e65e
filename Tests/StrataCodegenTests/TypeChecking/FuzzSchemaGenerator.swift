import Foundation

/// Writes random schema histories (one or two versions) whose names and docs come from pools of troublesome
/// spellings, reproducibly from a seed, for ``NameFuzzTests``.
struct FuzzSchemaGenerator {
    /// A small, fast, seeded generator (SplitMix64), so a failure can be reproduced from the seed.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    /// Names that clash with what the generated code uses, or that Swift spells specially.
    static let trickyNames = [
        "isManaged", "database", "isInvalidated", "isFrozen", "persistedValues", "persistedValue", "unmanaged",
        "modelDescription", "managedAccessor", "self", "Self", "model", "observe", "changes", "freeze", "super",
        "init", "deinit", "subscript", "Type", "Any", "Protocol", "List", "Date", "Data", "UUID", "String", "Int",
        "Bool", "Double", "Query", "QueryExpression", "Element", "Strata", "Foundation", "Swift", "Object",
        "LinkingObjects", "ModelDescription", "PersistedValue", "UnmanagedValues", "ManagedObjectAccessor",
        "SourceLocation", "Sendable", "CaseIterable", "Schema", "SchemaVersion", "some", "any", "V1", "V2", "V10",
        "version", "history", "fingerprints", "objectTypes", "customMigrations", "名前", "_1", "_Newest",
        "_NewestItem", "aⸯb", "\u{345}x", "x\u{345}", "default", "class", "func", "var", "let", "inout", "where",
        "newValue", "accessor", "rawValue", "allCases", "Task", "Result", "Error", "Thread", "Kind", "StatusKind",
        "status", "Status", "item", "Item", "ü", "Ü", "café", "x_y", "__z",
    ]

    /// Ordinary names, so that most schemas have something to accept.
    static let plainNames = ["title", "count", "when", "note", "amount", "label", "flag", "size"]

    /// Docs with line separators and characters that end or escape Swift comments and strings.
    static let docs = [
        "plain", "a\rb", "a\r\nb", "a\u{2028}b", "a\u{2029}b", "a\u{85}b", "a\u{0B}b\u{0C}c", "*/ closes", "/* opens",
        "\\(interpolation)", "\"quoted\"", "trailing \\", "tab\there",
    ]

    private var random: SplitMix
    private var serial = 0

    /// A generator whose schemas depend only on `seed`.
    init(seed: UInt64) {
        random = SplitMix(state: seed)
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

    /// A tricky name a third of the time, otherwise `plain`.
    private mutating func name(or plain: String) -> String { chance(33) ? pick(Self.trickyNames) : plain }

    /// `text` as a YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\r": result += "\\r"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\u{0B}": result += "\\v"
            case "\u{0C}": result += "\\f"
            case "\u{85}": result += "\\N"
            case "\u{2028}": result += "\\L"
            case "\u{2029}": result += "\\P"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// One schema: the YAML of version 1 and, for about half of them, of a version 2 that adds a property and
    /// has a custom step (so that views of version 1 and the migrations protocol are generated too).
    mutating func schemaFiles() -> [String] {
        serial += 1
        let schema = chance(20) ? pick(Self.trickyNames) : "Shop\(serial)"
        let modelCount = Int.random(in: 1...3, using: &random)
        var models: [String] = []
        for index in 0..<modelCount {
            let model = chance(30) ? pick(Self.trickyNames) : "M\(serial)x\(index)"
            if !models.contains(model) { models.append(model) }
        }
        var bodies: [String] = []
        for model in models {
            bodies.append(modelBody(model, among: models))
        }
        let first = "schema: \(Self.quoted(schema))\nversion: 1\nmodels:\n" + bodies.joined()
        guard chance(50), let firstModel = models.first else { return [first] }
        var second = first.replacingOccurrences(of: "\nversion: 1\n", with: "\nversion: 2\n")
        let header = "  \(Self.quoted(firstModel)):\n"
        second = second.replacingOccurrences(
            of: header, with: header + "    migrate: custom\n", options: [], range: second.range(of: header))
        second = second.replacingOccurrences(
            of: header + "    migrate: custom\n    properties:\n",
            with: header + "    migrate: custom\n    properties:\n      \(Self.quoted(name(or: "added"))): int?\n")
        return [first, second]
    }

    private mutating func modelBody(_ model: String, among models: [String]) -> String {
        var text = "  \(Self.quoted(model)):\n"
        if chance(30) { text += "    doc: \(Self.quoted(pick(Self.docs)))\n" }
        text += "    properties:\n"
        var used: Set<String> = []
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let property = name(or: Self.plainNames[index])
            guard used.insert(property).inserted else { continue }
            text += "      \(Self.quoted(property)): " + propertyValue(among: models) + "\n"
        }
        return text
    }

    private mutating func propertyValue(among models: [String]) -> String {
        var fields: [String]
        switch Int.random(in: 0..<8, using: &random) {
        case 0: fields = ["type: string"]
        case 1: fields = ["type: int"]
        case 2: fields = ["type: date?"]
        case 3: fields = ["type: data"]
        case 4: fields = ["type: \(Self.quoted("[uuid]"))"]
        case 5: fields = ["type: \(Self.quoted(pick(models) + "?"))"]
        case 6: fields = ["type: \(Self.quoted("[" + pick(models) + "]"))"]
        default:
            let cases = [pick(Self.plainNames), pick(Self.trickyNames)]
            fields = ["enum: [" + Set(cases).sorted().map(Self.quoted).joined(separator: ", ") + "]"]
        }
        if chance(20) { fields.append("doc: \(Self.quoted(pick(Self.docs)))") }
        return "{ " + fields.joined(separator: ", ") + " }"
    }
}

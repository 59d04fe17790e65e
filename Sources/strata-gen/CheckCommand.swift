import ArgumentParser
import StrataSchema
import StrataSchemaCompiler

/// `strata-gen check PATH…`: validates schemas without generating code.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check schema files and print their diagnostics; exit 1 if there is an error."
    )

    @OptionGroup var inputs: SchemaInputs

    func run() throws {
        let compilation = try inputs.compile()
        print("OK: " + Self.summary(of: compilation))
    }

    /// `2 schemas (Library v1–v3, Notes v1), 4 files, 0 warnings`.
    static func summary(of compilation: SchemaCompilation) -> String {
        let histories = compilation.histories
        let names = histories.map { history -> String in
            let first = history.versions.first?.version ?? 0
            let last = history.current.version
            return first == last ? "\(history.name) v\(last)" : "\(history.name) v\(first)–v\(last)"
        }
        let files = histories.reduce(0) { $0 + $1.versions.count }
        let warnings = compilation.diagnostics.filter { $0.severity == .warning }.count
        return "\(plural(histories.count, "schema")) (\(names.joined(separator: ", "))), "
            + "\(plural(files, "file")), \(plural(warnings, "warning"))"
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

import ArgumentParser
import StrataSchema
import StrataSchemaCompiler

/// `strata-gen diff PATH…`: prints the migration plan between consecutive versions, in plain words.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print what each version step of the given schemas changes and how the data migrates."
    )

    @OptionGroup var inputs: SchemaInputs

    func run() throws {
        let compilation = try inputs.compile()
        for (offset, history) in compilation.histories.enumerated() {
            if offset > 0 { print("") }
            let versions = history.versions.map { "v\($0.version)" }.joined(separator: ", ")
            print("\(history.name) (\(versions))")
            if history.plans.isEmpty { print("  one version: nothing to migrate") }
            for plan in history.plans {
                print(plan.summary)
            }
        }
    }
}

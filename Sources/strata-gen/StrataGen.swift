import ArgumentParser

/// `strata-gen`: the schema compiler's command line, run by the build plugin and by people.
@main
struct StrataGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-gen",
        abstract: "Compile Strata schema files (*.strata.yaml) into Swift models and migration steps.",
        subcommands: [GenerateCommand.self, CheckCommand.self, DiffCommand.self]
    )
}

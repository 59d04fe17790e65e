import ArgumentParser

/// `strata`: look inside a Strata database file from a terminal (Realm Browser's job).
@main
struct StrataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Inspect, check, compact, export and import Strata database files, or browse one in Strata Studio.",
        subcommands: [
            InfoCommand.self, VerifyCommand.self, CompactCommand.self, ExportCommand.self, ImportCommand.self,
            StudioCommand.self,
        ]
    )
}

import ArgumentParser

/// `strata`: look inside a Strata database file from a terminal (Realm Browser's job).
@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Inspect, check, compact, export and import Strata database files.",
        subcommands: [InfoCommand.self, VerifyCommand.self, CompactCommand.self, ExportCommand.self, ImportCommand.self]
    )
}

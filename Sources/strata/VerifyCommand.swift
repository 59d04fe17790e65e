import ArgumentParser
import StrataStorage

/// `strata verify FILE`: the structural verifier; exits 1 on damage.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a database: pages covered exactly once, checksums, indexes, links and backlinks.")

    @Argument(help: "The database file (NAME.strata).")
    var file: String

    @OptionGroup var keyFile: KeyFileOption

    func run() throws {
        let store = try keyFile.openExistingStore(file)
        defer { store.close() }
        let report = try store.verifyAll()
        print("OK: \(file) version \(report.version), \(report.tables) table(s), \(report.objects) object(s)")
        if let recovery = report.openRecovery {
            print("WARNING: \(file) \(recovery)")
        }
    }
}

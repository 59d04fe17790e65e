import ArgumentParser
import Foundation
import StrataStorage

/// `strata compact FILE OUTPUT`: a copy holding only live data.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact", abstract: "Write a compacted copy of a database (only live data) to a new file.")

    @Argument(help: "The database file (NAME.strata).")
    var file: String

    @OptionGroup var keyFile: KeyFileOption

    @Argument(help: "Where to write the copy; must not exist.")
    var output: String

    func run() throws {
        guard !FileManager.default.fileExists(atPath: output) else {
            throw ValidationError("\(output) exists; choose a new name")
        }
        let source = try Store.open(path: file, options: try keyFile.storeOptions(readOnly: true))
        defer { source.close() }
        let reader = try source.beginRead()
        defer { reader.end() }
        // Encrypted as the original. A copy that fails half way (a damaged original, a full disk) leaves nothing; one
        // interrupted leaves nothing at OUTPUT.
        try source.namingFile {
            try Store.writeCompactedCopy(of: Catalog(reader: reader), to: output, options: keyFile.storeOptions())
        }
        let before = try source.status.fileBytes
        let after = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.uint64Value ?? 0
        print("Wrote \(output): \(after) bytes (the original has \(before))")
    }
}

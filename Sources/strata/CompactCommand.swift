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
        // Asked without following a symbolic link: a link, even one to a missing file, is not a free name.
        guard (try? FileManager.default.attributesOfItem(atPath: output)) == nil else {
            throw ValidationError("\(output) exists (a file, a folder or a symbolic link); choose a new name")
        }
        do {
            try Store.checkCopyDestination(output, source: file)
        } catch StrataError.invalidArgument(let message) {
            throw ValidationError(message)
        }
        let source = try keyFile.openExistingStore(file)
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

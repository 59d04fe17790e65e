import ArgumentParser
import Foundation
import StrataCodegen

/// `strata-gen generate --output FILE PATH…`: writes the Swift code of every schema found.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate the Swift models, schema types and migration steps of the given schemas."
    )

    @Option(name: .shortAndLong, help: "The Swift file to write.")
    var output: String

    @OptionGroup var inputs: SchemaInputs

    func run() throws {
        let compilation = try inputs.compile()
        let text = SwiftGenerator().generate(compilation.histories)
        let url = URL(fileURLWithPath: output)
        // An unchanged file keeps its modification time, so the build does not recompile the target for nothing.
        if let existing = try? String(contentsOf: url, encoding: .utf8), existing == text { return }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            StandardError.print("\(output): error: cannot write the generated code: \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }
}

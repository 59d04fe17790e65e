import ArgumentParser
import StrataSchema
import StrataSchemaCompiler

/// The schema files and folders a command reads.
struct SchemaInputs: ParsableArguments {
    @Argument(help: "Schema files (*.strata.yaml, *.strata.yml) or folders searched recursively for them.")
    var paths: [String]

    /// Compiles the inputs and prints every diagnostic to standard error as `path:line:column: error: message`.
    ///
    /// - Throws: `ExitCode.failure` when a diagnostic is an error, after printing them all.
    func compile() throws -> SchemaCompilation {
        let compilation = SchemaCompiler().compile(paths: paths)
        for diagnostic in compilation.diagnostics {
            StandardError.print(diagnostic.description)
        }
        if compilation.hasErrors {
            let count = compilation.diagnostics.filter { $0.severity == .error }.count
            StandardError.print("strata-gen: \(count) error\(count == 1 ? "" : "s"); no code generated")
            throw ExitCode.failure
        }
        return compilation
    }
}

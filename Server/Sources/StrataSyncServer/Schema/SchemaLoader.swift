import StrataSchema
import StrataSchemaCompiler

/// Reads the app's schema YAML files with the schema compiler, as `strata-gen` does.
public enum SchemaLoader {
    /// Compiles every `*.strata.yaml` under `paths` and maps the newest version of each schema.
    /// - Throws: `SyncSchemaError` with the compiler's diagnostics when any file has an error, or when no schema
    ///   was found.
    public static func load(paths: [String]) throws -> SyncSchema {
        let compilation = SchemaCompiler().compile(paths: paths)
        if compilation.hasErrors {
            let errors = compilation.diagnostics.filter { $0.severity == .error }.map(\.description)
            throw SyncSchemaError("the schema files have errors:\n" + errors.joined(separator: "\n"))
        }
        guard !compilation.histories.isEmpty else {
            throw SyncSchemaError("no schema files (*.strata.yaml) in \(paths.joined(separator: ", "))")
        }
        return try SyncSchema(versions: compilation.histories.map(\.current))
    }
}

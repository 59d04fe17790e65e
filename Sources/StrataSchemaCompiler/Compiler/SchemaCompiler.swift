/// The schema compiler's front end: finds schema files, loads and validates each version, groups versions into
/// histories and diffs them into migration plans. Code generation and the `strata-gen` CLI start here.
///
/// It never throws and never traps on input: every problem, including unreadable files and YAML syntax errors,
/// comes back as a positioned `Diagnostic`.
public struct SchemaCompiler {
    /// Creates a compiler.
    public init() {}

    /// Compiles every `*.strata.yaml` / `*.strata.yml` among `paths` (files, or folders searched recursively),
    /// grouped by `schema:` name into histories, validated, diffed.
    /// - Parameter paths: Schema files and folders; hidden folders (`.build`) are skipped.
    /// - Returns: The histories (none if anything has an error) and the diagnostics.
    public func compile(paths: [String]) -> SchemaCompilation {
        var finder = SchemaFileFinder()
        let sources = finder.sources(in: paths)
        var compilation = compile(sources: sources)
        compilation.diagnostics = Self.sorted(finder.diagnostics + compilation.diagnostics)
        if sources.isEmpty && finder.diagnostics.isEmpty {
            compilation.diagnostics.insert(.warning(
                "no schema files (*.strata.yaml) found in \(paths.joined(separator: ", "))", at: nil), at: 0)
        }
        if compilation.hasErrors { compilation.histories = [] }
        return compilation
    }

    /// Compiles schema files already in memory.
    /// - Parameter sources: One schema version each; `path` is used only in diagnostics.
    /// - Returns: The histories (none if anything has an error) and the diagnostics.
    public func compile(sources: [SchemaSource]) -> SchemaCompilation {
        var diagnostics: [Diagnostic] = []
        var files: [HistoryAssembler.ValidatedFile] = []
        for source in sources {
            let document: YAMLDocument
            switch YAMLDocument.compose(source.text, path: source.path) {
            case .success(let composed): document = composed
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
                continue
            }
            var reader = SchemaFileReader(document: document)
            let loaded = reader.read()
            diagnostics += reader.diagnostics
            guard var file = loaded else { continue }
            var validator = VersionValidator(file: file)
            file.version = validator.validate()
            diagnostics += validator.diagnostics
            let hasErrors = (reader.diagnostics + validator.diagnostics).contains { $0.severity == .error }
            files.append(.init(file: file, hasErrors: hasErrors))
        }
        var assembler = HistoryAssembler()
        let histories = assembler.assemble(files)
        diagnostics += assembler.diagnostics
        let compilation = SchemaCompilation(histories: histories, diagnostics: Self.sorted(diagnostics))
        guard compilation.hasErrors else { return compilation }
        return SchemaCompilation(histories: [], diagnostics: compilation.diagnostics)
    }

    /// Diagnostics by path, line and column; those without a location first; equal positions keep their order.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let left = lhs.element.location
            let right = rhs.element.location
            switch (left, right) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let left?, let right?):
                if (left.path, left.line, left.column) != (right.path, right.line, right.column) {
                    return (left.path, left.line, left.column) < (right.path, right.line, right.column)
                }
                return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}

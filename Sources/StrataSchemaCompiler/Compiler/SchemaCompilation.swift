import StrataSchema

/// What compiling a set of schema files produced: the validated histories and every diagnostic.
public struct SchemaCompilation: Sendable {
    /// One history per `schema:` name, sorted by name; empty when any file has an error, so that a schema with
    /// errors never produces code.
    public var histories: [SchemaHistory]
    /// Every error and warning, sorted by path, line and column (diagnostics without a location first).
    public var diagnostics: [Diagnostic]

    /// Creates a compilation result.
    public init(histories: [SchemaHistory], diagnostics: [Diagnostic]) {
        self.histories = histories
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }

    /// The history named `name`, if one was compiled.
    public func history(named name: String) -> SchemaHistory? {
        histories.first { $0.name == name }
    }
}

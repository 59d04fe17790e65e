/// The text of one schema file, and the path it is reported under.
public struct SchemaSource: Hashable, Sendable {
    /// The path diagnostics name; the compiler never reads it.
    public var path: String
    /// The file's YAML text.
    public var text: String

    /// Creates a source from text already in memory.
    /// - Parameters:
    ///   - path: The path used in diagnostics (`path:line:column: error: ...`).
    ///   - text: The YAML text of one schema version.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

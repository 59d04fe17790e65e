/// A position in a schema file, carried from the YAML node through the schema model so that every
/// diagnostic can point at the line the user wrote.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file's path as it was given to the compiler.
    public var path: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int

    /// Creates a location.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form compilers, SwiftPM and editors understand.
    public var description: String { "\(path):\(line):\(column)" }
}

import StrataSchema

/// A problem the schema compiler found, with where it is and, when one is likely, how to fix it.
///
/// Printed as `path:line:column: error: message` so that SwiftPM and editors attach it to the YAML line.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Hashable, Sendable {
        /// The schema cannot be compiled.
        case error
        /// The schema compiles, but something is likely wrong.
        case warning
    }

    /// Error or warning.
    public var severity: Severity
    /// What is wrong, naming the model, property or version concerned, and the fix where one is likely.
    public var message: String
    /// Where it is; `nil` only for problems that belong to no file (for example "no schema files given").
    public var location: SourceLocation?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// An error at `location`.
    public static func error(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    /// A warning at `location`.
    public static func warning(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    /// `path:line:column: error: message`.
    public var description: String {
        if let location { return "\(location): \(severity.rawValue): \(message)" }
        return "\(severity.rawValue): \(message)"
    }
}

/// Why a JSON import failed: the JSON path of the bad value (`$[3].home.city`) and what is wrong with it.
///
/// The import that throws it keeps nothing: it runs in one write transaction, which the failure cancels.
public struct JSONImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the bad value is: `$` for the document, `$[3]` for its fourth element, `$[3].home.city` for a member.
    public var path: String
    /// What is wrong with it: `expected a string, found 12`.
    public var message: String

    /// An error at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `$[3].home.city: expected a string, found 12`.
    public var description: String { "\(path): \(message)" }
}

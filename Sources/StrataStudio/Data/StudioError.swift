import StrataStorage

/// A failure the studio answers a request with: an HTTP status and a message the page shows. A predicate error
/// also carries the predicate and the position of the problem in it, so the page can point at it.
public struct StudioError: Error, CustomStringConvertible, Sendable {
    /// The HTTP status: 400 bad input, 401 no token, 403 read-only, 404 no such model or object, 409 a rule of the
    /// file refused the edit, 500 the file could not be read.
    public var status: Int
    /// What went wrong, in words.
    public var message: String
    /// For a malformed predicate: the predicate and the UTF-8 offset of the problem in it.
    public var predicate: (text: String, offset: Int)?

    /// An error with `status` and `message`.
    public init(_ status: Int, _ message: String, predicate: (text: String, offset: Int)? = nil) {
        self.status = status
        self.message = message
        self.predicate = predicate
    }

    /// The message.
    public var description: String { message }

    /// `error` as the page should see it: Strata's own errors get the status that fits them.
    static func wrapping(_ error: Error) -> StudioError {
        switch error {
        case let studio as StudioError:
            return studio
        case StrataError.invalidPredicate(let predicate, let offset, let message):
            return StudioError(400, "\(message) (at offset \(offset))", predicate: (predicate, offset))
        case StrataError.uniquenessViolation, StrataError.deleteDenied, StrataError.duplicatePrimaryKey:
            return StudioError(409, "\(error)")
        case StrataError.readOnly:
            return StudioError(403, "\(error)")
        case StrataError.invalidArgument:
            return StudioError(400, "\(error)")
        default:
            if String(reflecting: type(of: error)).hasSuffix("JSONImportError") { return StudioError(400, "\(error)") }
            return StudioError(500, "\(error)")
        }
    }
}

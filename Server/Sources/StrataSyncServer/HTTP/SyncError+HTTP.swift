import Hummingbird

extension SyncError {
    /// The HTTP status of the error's kind.
    var status: HTTPResponse.Status {
        switch kind {
        case .badRequest: return .badRequest
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .conflict: return .conflict
        case .predecessorMissing: return .preconditionFailed
        case .unavailable: return .serviceUnavailable
        }
    }

    /// The error as Hummingbird's `HTTPError`, whose body is `{"error":{"message":"..."}}`.
    var httpError: HTTPError { HTTPError(status, message: message) }
}

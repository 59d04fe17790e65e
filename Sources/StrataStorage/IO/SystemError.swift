#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a failed system call into the `StrataError` a user can act on.
enum SystemError {
    /// The error for `operation` on `path` that failed with `code` (an `errno` value).
    static func error(_ operation: String, path: String, code: Int32) -> StrataError {
        if code == ENOSPC || code == EDQUOT {
            return .diskFull(path: path)
        }
        return .io(operation: operation, path: path, errno: code, message: String(cString: strerror(code)))
    }

    /// The error for `operation` on `path` from the current `errno`.
    static func current(_ operation: String, path: String) -> StrataError {
        error(operation, path: path, code: errno)
    }
}

import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is deinitialized.
package final class TemporaryDirectory {
    /// The directory's URL.
    package let url: URL

    /// Creates a new, empty directory.
    package init(prefix: String = "strata-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

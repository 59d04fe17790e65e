import Foundation

/// A folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "strata-schema-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` at `relativePath`, creating folders; returns the full path.
    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> String {
        try write(relativePath, Data(contents.utf8))
    }

    /// Writes raw bytes at `relativePath`, creating folders; returns the full path.
    @discardableResult
    func write(_ relativePath: String, _ contents: Data) throws -> String {
        let full = path + "/" + relativePath
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: full))
        return full
    }
}

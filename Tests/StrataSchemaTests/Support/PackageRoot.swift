import Foundation

/// The repository's root (the folder holding Package.swift), found from this file's path.
enum PackageRoot {
    /// `Tests/StrataSchemaTests/Support/PackageRoot.swift`, three folders up.
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}

import Foundation

/// A throwaway Swift package in a temporary folder that depends on this repository by path and applies
/// `StrataPlugin` to one executable target: the way an app uses Strata.
///
/// Tests write schema files and sources into it, build it with `swift build` and run its executable. All builds of
/// one instance share one scratch folder, so a rebuild (after adding a schema version, or breaking one) only
/// recompiles what changed.
///
/// ```swift
/// let package = try ConsumerPackage(strataRoot: ConsumerPackage.repositoryRoot(from: #filePath))
/// try package.write("schema: Shop ...", to: "Schemas/App/Shop.v1.strata.yaml")
/// try package.write("print(Item())", to: "Sources/App/main.swift")
/// let build = try package.build()
/// let run = try package.run()
/// ```
package final class ConsumerPackage {
    /// The package's folder (removed when the instance is deinitialized).
    package let root: URL
    /// The executable target, which applies `StrataPlugin`; its schemas go to `Schemas/<targetName>/` or
    /// `Sources/<targetName>/`.
    package let targetName: String
    /// This repository's root, which the package depends on by path.
    package let strataRoot: URL
    /// The folder `swift build` builds into (`--scratch-path`), shared by every build of this package.
    package let scratchPath: URL

    /// Creates the package with its manifest; sources and schemas are up to the caller.
    ///
    /// - Parameters:
    ///   - strataRoot: This repository's root (see ``repositoryRoot(from:)``).
    ///   - targetName: The executable target's name.
    ///   - warningsAsErrors: Compile the target (generated code included) with `-warnings-as-errors`.
    package init(strataRoot: URL, targetName: String = "LibraryApp", warningsAsErrors: Bool = true) throws {
        self.strataRoot = strataRoot
        self.targetName = targetName
        root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-consumer-\(UUID().uuidString)")
        scratchPath = root.appendingPathComponent(".build")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try write(Self.manifest(strataRoot: strataRoot, targetName: targetName, warningsAsErrors: warningsAsErrors),
                  to: "Package.swift")
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Rewrites the manifest so that the target's code is main-actor isolated by default (SE-0466's
    /// `.defaultIsolation(MainActor.self)`, Xcode 26's default for new app targets), or nonisolated again.
    public func setMainActorIsolationByDefault(_ mainActor: Bool, warningsAsErrors: Bool = true) throws {
        try write(
            Self.manifest(
                strataRoot: strataRoot, targetName: targetName, warningsAsErrors: warningsAsErrors,
                mainActorByDefault: mainActor),
            to: "Package.swift")
    }

    /// The repository root, found from a test file's `#filePath` (`<root>/Tests/<Target>/<File>.swift`).
    package static func repositoryRoot(from filePath: String) -> URL {
        var url = URL(fileURLWithPath: filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
               FileManager.default.fileExists(atPath: url.appendingPathComponent("Sources/Strata").path) {
                return url
            }
        }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Writes `text` to `relativePath` inside the package, creating folders as needed.
    package func write(_ text: String, to relativePath: String) throws {
        let url = root.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Removes `relativePath` from the package.
    package func remove(_ relativePath: String) throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent(relativePath))
    }

    /// `swift build` of the package (the executable and everything it needs, nothing else).
    package func build() throws -> ConsumerPackageResult {
        try ConsumerPackageResult.run(
            "/usr/bin/env",
            ["swift", "build", "--package-path", root.path, "--scratch-path", scratchPath.path,
             "--product", targetName],
            in: root
        )
    }

    /// Runs the built executable with `arguments`.
    package func run(_ arguments: [String] = []) throws -> ConsumerPackageResult {
        let executable = scratchPath.appendingPathComponent("debug").appendingPathComponent(targetName)
        return try ConsumerPackageResult.run(executable.path, arguments, in: root)
    }

    /// The manifest: one executable target depending on `Strata`, with the plugin applied.
    static func manifest(
        strataRoot: URL, targetName: String, warningsAsErrors: Bool, mainActorByDefault: Bool = false
    ) -> String {
        // SwiftPM names a path dependency after its folder.
        let identity = strataRoot.lastPathComponent
        var settings: [String] = []
        if warningsAsErrors { settings.append(#".unsafeFlags(["-warnings-as-errors"])"#) }
        if mainActorByDefault { settings.append(".defaultIsolation(MainActor.self)") }
        let swiftSettings = settings.isEmpty ? "" : "swiftSettings: [\(settings.joined(separator: ", "))],"
        // `.defaultIsolation` needs tools version 6.2.
        return """
            // swift-tools-version: \(mainActorByDefault ? "6.2" : "6.0")
            import PackageDescription

            let package = Package(
                name: "StrataConsumer",
                platforms: [.macOS(.v15)],
                dependencies: [.package(path: \(literal(strataRoot.path)))],
                targets: [
                    .executableTarget(
                        name: \(literal(targetName)),
                        dependencies: [.product(name: "Strata", package: \(literal(identity)))],
                        \(swiftSettings)
                        plugins: [.plugin(name: "StrataPlugin", package: \(literal(identity)))]
                    ),
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    private static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

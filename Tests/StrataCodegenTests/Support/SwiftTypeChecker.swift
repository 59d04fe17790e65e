import Foundation

/// Runs `swiftc -typecheck` over generated Swift (and app code written against it), importing the modules this
/// package built: what an app's build would say about the generated code, without a package or a link step.
struct SwiftTypeChecker {
    /// The build folder's `Modules` directory, which holds `Strata.swiftmodule` and its dependencies.
    let modules: URL

    /// What one run said.
    struct Outcome {
        /// Whether `swiftc` accepted every file.
        let succeeded: Bool
        /// Its diagnostics (standard error and output).
        let output: String
    }

    /// Finds `Modules/` beside the test bundle, as `swift build --build-tests` lays the build folder out.
    init() throws {
        var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent().deletingLastPathComponent() }
        let found = candidates.map { $0.appendingPathComponent("Modules") }.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Strata.swiftmodule").path)
        }
        guard let found else {
            throw ModulesMissing(searched: candidates.map(\.path))
        }
        modules = found
    }

    /// Type-checks `files` (name → Swift source) as one module in a fresh temporary folder.
    func typeCheck(_ files: [(name: String, text: String)], moduleName: String = "GeneratedCheck") throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-typecheck-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let outputURL = folder.appendingPathComponent("swiftc-output")
        try Data().write(to: outputURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", moduleName,
            "-I", modules.path] + includeFlags() + paths
        let handle = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let output = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
        return Outcome(succeeded: process.terminationStatus == 0, output: output)
    }

    /// `-Xcc -fmodule-map-file=` for each C module the build folder holds, which Swift modules may import.
    private func includeFlags() -> [String] {
        let buildFolder = modules.deletingLastPathComponent()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: buildFolder.path) else { return [] }
        return entries.sorted().filter { $0.hasSuffix(".build") }.flatMap { entry -> [String] in
            let map = buildFolder.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
            guard FileManager.default.fileExists(atPath: map.path) else { return [] }
            return ["-Xcc", "-fmodule-map-file=\(map.path)"]
        }
    }
}

/// The build folder's `Modules/` was not found beside the test bundle.
struct ModulesMissing: Error, CustomStringConvertible {
    /// Where the type checker looked.
    let searched: [String]
    /// What to do.
    var description: String {
        "no Modules/Strata.swiftmodule beside the test bundle (looked in \(searched.joined(separator: ", "))); "
            + "build with `swift build --build-tests`"
    }
}

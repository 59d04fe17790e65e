import Foundation

/// The package's targets and what each depends on, as SwiftPM evaluates Package.swift
/// (`swift package dump-package`), so tests check the real dependency graph rather than the manifest's text.
struct PackageManifest {
    /// One dependency of a target.
    enum Dependency: Hashable, CustomStringConvertible {
        /// A target of this package (`"StrataSchema"`, `.target(name:)`); SwiftPM resolves `byName` to a product
        /// of another package only when no target has the name, which this package never relies on.
        case target(String)
        /// `.product(name:package:)`: a product of another package.
        case product(name: String, package: String)

        var description: String {
            switch self {
            case .target(let name): return name
            case .product(let name, let package): return "\(package).\(name)"
            }
        }
    }

    /// The failure of `load()`, with what SwiftPM printed.
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Each target's direct dependencies, by target name.
    var dependencies: [String: [Dependency]]

    /// Evaluates the package's manifest with SwiftPM. The scratch folder is a temporary one, so the call neither
    /// waits for nor disturbs the `.build` folder a running `swift test` holds.
    static func load() throws -> PackageManifest {
        let scratch = try TemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "package", "--package-path", PackageRoot.url.path, "--scratch-path", scratch.path,
            "dump-package",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a full pipe would otherwise block SwiftPM forever.
        let json = output.fileHandleForReading.readDataToEndOfFile()
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LoadError(description: "swift package dump-package exited with \(process.terminationStatus): "
                + String(decoding: messages, as: UTF8.self))
        }
        return try PackageManifest(json: json)
    }

    /// Reads `dump-package`'s JSON: `targets[].name` and `targets[].dependencies[]`, each `{"byName": [name, …]}`,
    /// `{"target": [name, …]}` or `{"product": [name, package, …]}`.
    init(json: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let targets = root["targets"] as? [[String: Any]]
        else { throw LoadError(description: "dump-package printed no 'targets' array") }
        var dependencies: [String: [Dependency]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else {
                throw LoadError(description: "a target without a name in dump-package's output: \(target)")
            }
            let entries = target["dependencies"] as? [[String: Any]] ?? []
            dependencies[name] = try entries.map { entry in
                if let byName = (entry["byName"] ?? entry["target"]) as? [Any],
                    let dependency = byName.first as? String
                {
                    return .target(dependency)
                }
                if let product = entry["product"] as? [Any], product.count >= 2,
                    let productName = product[0] as? String, let package = product[1] as? String
                {
                    return .product(name: productName, package: package)
                }
                throw LoadError(description: "target \(name): unreadable dependency \(entry)")
            }
        }
        self.dependencies = dependencies
    }

    /// Every dependency `target` reaches, directly or through other targets of this package, each with the chain
    /// that reaches it (`["Strata", "StrataSchema", "Yams.Yams"]`), so a failure can say how it got there.
    func chains(from target: String) -> [Dependency: [String]] {
        var reached: [Dependency: [String]] = [:]
        var queue: [(name: String, chain: [String])] = [(target, [target])]
        while !queue.isEmpty {
            let (name, chain) = queue.removeFirst()
            for dependency in dependencies[name] ?? [] where reached[dependency] == nil {
                reached[dependency] = chain + [dependency.description]
                if case .target(let next) = dependency { queue.append((next, chain + [next])) }
            }
        }
        return reached
    }
}

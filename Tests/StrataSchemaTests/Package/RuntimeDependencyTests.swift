import XCTest

/// Apps link `Strata`, so nothing `Strata` depends on may bring the schema compiler or its YAML parser (Yams)
/// into an app: the runtime needs only the schema model (`StrataSchema`), whose values generated code writes as
/// literals. See docs/ARCHITECTURE.md, "The runtime links the schema model, not the compiler".
final class RuntimeDependencyTests: XCTestCase {
    private static let compilerOnly: Set<PackageManifest.Dependency> = [
        .target("StrataSchemaCompiler"), .product(name: "Yams", package: "Yams"),
    ]

    /// Evaluated once: SwiftPM compiles the manifest, which takes seconds.
    private static let manifest = Result { try PackageManifest.load() }

    func testTheRuntimeReachesNeitherTheSchemaCompilerNorYams() throws {
        let manifest = try Self.manifest.get()
        let reached = manifest.chains(from: "Strata")
        XCTAssertNotNil(reached[.target("StrataSchema")], "Strata should depend on the schema model")
        for dependency in Self.compilerOnly {
            if let chain = reached[dependency] {
                XCTFail("Strata depends on \(dependency) through \(chain.joined(separator: " → ")): apps would link "
                    + "the schema compiler; move what the runtime needs into StrataSchema")
            }
        }
    }

    /// Strata Studio's web server (Hummingbird, and SwiftNIO under it) is linked by the `strata` tool only: apps
    /// that link Strata must not bring a web server with them.
    func testTheRuntimeReachesNoWebServer() throws {
        let manifest = try Self.manifest.get()
        for library in ["Strata", "StrataStorage", "StrataSchema"] {
            for (dependency, chain) in manifest.chains(from: library) {
                let isServer: Bool
                switch dependency {
                case .target(let name): isServer = name == "StrataStudio"
                case .product(_, let package): isServer = ["hummingbird", "swift-nio"].contains(package)
                }
                if isServer {
                    XCTFail("\(library) depends on \(dependency) through \(chain.joined(separator: " → ")): apps would "
                        + "link Strata Studio's web server; only the strata executable may")
                }
            }
        }
    }

    /// The check above can fail: the `strata` tool is seen to reach Hummingbird through StrataStudio.
    func testTheStrataToolReachesHummingbird() throws {
        let manifest = try Self.manifest.get()
        let reached = manifest.chains(from: "strata")
        XCTAssertNotNil(reached[.product(name: "Hummingbird", package: "hummingbird")], "\(reached.keys)")
        XCTAssertNotNil(reached[.target("StrataStudio")], "\(reached.keys)")
    }

    func testTheSchemaModelHasNoDependencies() throws {
        let manifest = try Self.manifest.get()
        XCTAssertEqual(manifest.dependencies["StrataSchema"], [], "StrataSchema is linked by every app")
    }

    /// The check above can fail: the tools that do load YAML are seen to reach Yams.
    func testTheCodeGeneratorReachesYams() throws {
        let manifest = try Self.manifest.get()
        let reached = manifest.chains(from: "strata-gen")
        XCTAssertNotNil(reached[.product(name: "Yams", package: "Yams")], "\(reached.keys)")
        XCTAssertNotNil(reached[.target("StrataSchemaCompiler")], "\(reached.keys)")
    }
}

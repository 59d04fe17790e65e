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

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Strata",
    // The minimums are those of `Mutex` (Synchronization), which Strata's configuration and query caches use; every
    // other API the runtime calls (actor `preconditionIsolated`, `Date.formatted(.iso8601)`, POSIX files, `mmap`,
    // `fcntl` locks, `F_FULLFSYNC`) is older. README.md, "Platforms", says so too.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataStorage", targets: ["StrataStorage"]),
        .library(name: "StrataSchema", targets: ["StrataSchema"]),
        .library(name: "StrataSchemaCompiler", targets: ["StrataSchemaCompiler"]),
        // The sync protocol's wire types, shared by the client (Strata) and the server package (Server/).
        .library(name: "StrataSyncWire", targets: ["StrataSyncWire"]),
        .library(name: "StrataCodegen", targets: ["StrataCodegen"]),
        // For `strata-bench studio` (Benchmarks/); apps link Strata, which never reaches it.
        .library(name: "StrataStudio", targets: ["StrataStudio"]),
        .plugin(name: "StrataPlugin", targets: ["StrataPlugin"]),
        .executable(name: "strata-gen", targets: ["strata-gen"]),
        .executable(name: "strata", targets: ["strata"]),
        .executable(name: "strata-demo", targets: ["strata-demo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Strata Studio's web server, linked by the `strata` tool only (never by the Strata library).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        // MARK: Schema model, shared by the runtime and the compiler
        // No dependencies: apps link it through Strata, so it must not bring a YAML parser with it
        // (RuntimeDependencyTests checks that nothing Strata depends on reaches Yams).
        .target(name: "StrataSchema"),

        // MARK: Schema compiler
        .target(name: "StrataSchemaCompiler", dependencies: ["StrataSchema", .product(name: "Yams", package: "Yams")]),
        .target(name: "StrataCodegen", dependencies: ["StrataSchema", "StrataSchemaCompiler"]),
        .executableTarget(
            name: "strata-gen",
            dependencies: [
                "StrataSchema", "StrataSchemaCompiler", "StrataCodegen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(name: "StrataPlugin", capability: .buildTool(), dependencies: ["strata-gen"]),

        // MARK: Runtime
        .target(
            name: "StrataStorage",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]),
        // The sync protocol's wire types (docs/SYNC.md, "Protocol"): Foundation only, so that apps link no more
        // than before; the server package builds its requests and answers from the same types.
        .target(name: "StrataSyncWire"),
        .target(name: "Strata", dependencies: ["StrataStorage", "StrataSchema", "StrataSyncWire"]),
        // Strata Studio (`strata studio`): a local web page over a database file. Only this target links the web
        // server; RuntimeDependencyTests checks that nothing Strata depends on reaches Hummingbird or SwiftNIO.
        .target(
            name: "StrataStudio",
            dependencies: [
                "Strata", "StrataStorage", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .executableTarget(
            name: "strata",
            dependencies: [
                "Strata", "StrataStorage", "StrataStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "strata-demo", dependencies: ["Strata"], plugins: ["StrataPlugin"]),

        // MARK: Tests
        .target(name: "StrataTestSupport", dependencies: ["StrataStorage"], path: "Tests/StrataTestSupport"),
        .executableTarget(
            name: "strata-test-helper", dependencies: ["StrataStorage", "Strata", "StrataTestSupport"],
            path: "Sources/StrataTestHelper"),
        .executableTarget(
            name: "strata-object-helper", dependencies: ["Strata"], path: "Sources/StrataObjectHelper",
            plugins: ["StrataPlugin"]),
        // Migrates big files in a child process: the kill-during-migration tests and the migration benchmark.
        .executableTarget(
            name: "strata-migration-helper", dependencies: ["Strata", "StrataStorage"],
            path: "Sources/StrataMigrationHelper", plugins: ["StrataPlugin"]),
        // Program shapes whose main queue and main actor leave the main thread on Linux: top-level `await` and
        // `@MainActor` functions, and a synchronous program that calls `dispatchMain()` (the confinement tests).
        .executableTarget(
            name: "strata-main-actor-helper", dependencies: ["Strata"], path: "Sources/StrataMainActorHelper",
            plugins: ["StrataPlugin"]),
        .executableTarget(
            name: "strata-dispatch-main-helper", dependencies: ["Strata"], path: "Sources/StrataDispatchMainHelper",
            plugins: ["StrataPlugin"]),
        .testTarget(name: "StrataSchemaTests", dependencies: ["StrataSchema", "StrataSchemaCompiler"]),
        .testTarget(
            name: "StrataCodegenTests",
            dependencies: [
                "StrataSchema", "StrataSchemaCompiler", "StrataCodegen", "Strata", "StrataTestSupport",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(name: "StrataStorageTests", dependencies: ["StrataStorage", "StrataTestSupport"]),
        .testTarget(
            name: "StrataTests", dependencies: ["Strata", "StrataStorage", "StrataSyncWire", "StrataTestSupport"],
            plugins: ["StrataPlugin"]),
        // Its tests run the strata-gen executable, which `swift build --build-tests` builds with every product.
        .testTarget(name: "StrataPluginTests", dependencies: ["StrataTestSupport"]),
        .testTarget(
            name: "StrataStudioTests",
            dependencies: ["StrataStudio", "Strata", "StrataStorage", "StrataTestSupport"],
            plugins: ["StrataPlugin"]),
    ],
    swiftLanguageModes: [.v6]
)

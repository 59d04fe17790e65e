// swift-tools-version: 6.0
import PackageDescription

// The sync server lives in its own package so that apps, which depend on the root package, never link a web server,
// a PostgreSQL client or a JWT library. It reads the app's schemas through the root package's StrataSchema and
// StrataSchemaCompiler products. docs/SYNC.md describes the protocol and how to run it.
let package = Package(
    name: "StrataSync",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StrataSyncServer", targets: ["StrataSyncServer"]),
        .executable(name: "strata-sync", targets: ["strata-sync"]),
        .executable(name: "strata-sync-bench", targets: ["strata-sync-bench"]),
    ],
    dependencies: [
        .package(name: "Strata", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: [
        .target(
            name: "StrataSyncServer",
            dependencies: [
                .product(name: "StrataSchema", package: "Strata"),
                .product(name: "StrataSchemaCompiler", package: "Strata"),
                .product(name: "StrataSyncWire", package: "Strata"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "strata-sync",
            dependencies: [
                "StrataSyncServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // 20 Strata clients through an in-process server into PostgreSQL: throughput and commit-to-notification
        // latency (docs/BENCHMARKS.md, "Sync").
        .executableTarget(
            name: "strata-sync-bench",
            dependencies: [
                "StrataSyncServer",
                .product(name: "Strata", package: "Strata"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
        // A Strata client in a process of its own, which SyncClientKillTests kills while it applies a page.
        .executableTarget(
            name: "strata-sync-test-client",
            dependencies: [.product(name: "Strata", package: "Strata")],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
        // The Strata client (the root package's `Strata`) against a real server and PostgreSQL: round trips,
        // conflicts, offline edits, convergence, a killed server process.
        .testTarget(
            name: "StrataSyncClientTests",
            dependencies: [
                "StrataSyncServer",
                .product(name: "Strata", package: "Strata"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
        .testTarget(
            name: "StrataSyncServerTests",
            dependencies: [
                "StrataSyncServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

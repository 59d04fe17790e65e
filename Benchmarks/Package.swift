// swift-tools-version: 6.0
import PackageDescription

/// Strata and SQLite side by side on the workloads W1–W7 of docs/BENCHMARKS.md: `swift run -c release strata-bench`.
let package = Package(
    name: "StrataBenchmarks",
    // Strata's own minimum (see ../Package.swift); the benchmark is a command-line tool, so macOS only.
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Strata", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3"),
        .executableTarget(
            name: "strata-bench",
            dependencies: [
                "CSQLite",
                .product(name: "Strata", package: "Strata"),
                .product(name: "StrataStorage", package: "Strata"),
                .product(name: "StrataStudio", package: "Strata"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: [.plugin(name: "StrataPlugin", package: "Strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

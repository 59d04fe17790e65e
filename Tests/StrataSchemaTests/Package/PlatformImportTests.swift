import Foundation
import XCTest

/// Modules that exist on some platforms only must be imported inside a guard (`#if canImport(Glibc)`,
/// `#if os(Linux)`), or the package stops building elsewhere: an unguarded `import FoundationEssentials` built on
/// Linux and broke the build on macOS, where the module did not exist.
final class PlatformImportTests: XCTestCase {
    func testEveryPlatformImportInTheSourcesIsGuarded() throws {
        let root = PackageRoot.url
        var files = try PlatformImportScanner.swiftFiles(under: root.appendingPathComponent("Sources"))
        files += try PlatformImportScanner.swiftFiles(under: root.appendingPathComponent("Plugins"))
        files += try PlatformImportScanner.swiftFiles(under: root.appendingPathComponent("Benchmarks/Sources"))
        // What the code generator writes, as its golden files pin it.
        files += [
            root.appendingPathComponent("Tests/StrataCodegenTests/Golden/Library.swift.golden"),
            root.appendingPathComponent("Tests/StrataCodegenTests/Generated/FixtureModels.swift"),
        ]
        XCTAssertGreaterThan(files.count, 100, "the sources were not found under \(root.path)")
        var problems: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = String(file.path.dropFirst(root.path.count + 1))
            problems += PlatformImportScanner.unguardedImports(in: text).map { "\(relative):\($0.line): \($0.message)" }
        }
        XCTAssert(problems.isEmpty, problems.joined(separator: "\n"))
    }

    func testTheScannerFindsAnUnguardedImport() {
        let text = """
            import Foundation
            @preconcurrency import Glibc
            #if canImport(FoundationEssentials)
            import FoundationEssentials
            #else
            import Darwin
            #endif
            """
        let found = PlatformImportScanner.unguardedImports(in: text)
        XCTAssertEqual(found.map(\.line), [2, 6])
        XCTAssertEqual(found.first?.module, "Glibc")
    }

    func testTheScannerAcceptsMatchingGuards() {
        let text = """
            #if canImport(Glibc)
            import Glibc
            #elseif canImport(Musl)
            import Musl
            #elseif os(macOS) || os(iOS)
            import Darwin.C
            #endif
            #if DEBUG
            #if canImport(os)
            import os
            #endif
            #endif
            """
        XCTAssertEqual(PlatformImportScanner.unguardedImports(in: text).map(\.line), [])
    }

    func testANegatedGuardDoesNotCount() {
        let text = """
            #if !canImport(Darwin)
            import Darwin
            #endif
            """
        XCTAssertEqual(PlatformImportScanner.unguardedImports(in: text).map(\.module), ["Darwin"])
    }
}

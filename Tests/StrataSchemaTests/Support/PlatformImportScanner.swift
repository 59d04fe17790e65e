import Foundation

/// Finds imports of platform-specific modules that no `#if canImport(Module)` or `#if os(...)` encloses.
enum PlatformImportScanner {
    /// Modules some supported platform lacks: C libraries, the Foundation split, Apple-only frameworks.
    static let platformModules: Set<String> = [
        "FoundationEssentials", "FoundationInternationalization", "Glibc", "Musl", "Bionic", "Android", "WASILibc",
        "Darwin", "WinSDK", "ucrt", "CRT", "os", "ObjectiveC", "UIKit", "AppKit", "WatchKit", "Combine",
    ]

    /// An import that is not guarded.
    struct Finding: Equatable {
        /// 1-based line.
        var line: Int
        /// The imported module (`Darwin` for `import Darwin.C`).
        var module: String

        /// What to do about it.
        var message: String {
            "'import \(module)' is not inside '#if canImport(\(module))' or '#if os(...)'; "
                + "guard it as the other files do (#if canImport(\(module)) … #else … #endif)"
        }
    }

    /// The Swift files under `folder`, recursively, in a stable order.
    static func swiftFiles(under folder: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder.path])
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    /// The platform imports of `text` that no enclosing `#if`/`#elseif` branch guards. A branch guards module `M`
    /// when its condition contains `canImport(M)` (not negated) or any `os(...)`; an `#else` guards nothing.
    static func unguardedImports(in text: String) -> [Finding] {
        var branches: [String] = []
        var findings: [Finding] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let condition = directive("#if", in: line) {
                branches.append(condition)
            } else if let condition = directive("#elseif", in: line), !branches.isEmpty {
                branches[branches.count - 1] = condition
            } else if directive("#else", in: line) != nil, !branches.isEmpty {
                branches[branches.count - 1] = ""
            } else if directive("#endif", in: line) != nil, !branches.isEmpty {
                branches.removeLast()
            } else if let module = importedModule(line), platformModules.contains(module),
                !branches.contains(where: { guards($0, module) })
            {
                findings.append(Finding(line: index + 1, module: module))
            }
        }
        return findings
    }

    /// The condition after `keyword` when `line` is that directive (`""` for `#else` and `#endif`).
    private static func directive(_ keyword: String, in line: String) -> String? {
        guard line.hasPrefix(keyword) else { return nil }
        let rest = line.dropFirst(keyword.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        return rest.trimmingCharacters(in: .whitespaces)
    }

    private static func guards(_ condition: String, _ module: String) -> Bool {
        let check = "canImport(\(module))"
        return condition.contains("os(") || (condition.contains(check) && !condition.contains("!" + check))
    }

    /// The first component of the module `line` imports, skipping attributes (`@preconcurrency`, `@_spi(X)`),
    /// an access level and an import kind (`import struct Foundation.URL`); `nil` when it is no import.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
        if let first = words.first, modifiers.contains(first) { words = words.dropFirst() }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        let kinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        if let first = words.first, kinds.contains(first) { words = words.dropFirst() }
        guard let path = words.first else { return nil }
        return path.split(separator: ".").first.map(String.init)
    }
}

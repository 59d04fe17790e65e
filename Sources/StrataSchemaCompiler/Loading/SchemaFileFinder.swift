// Full Foundation, not FoundationEssentials: directory walking with `isDirectory` needs it on Linux, and Yams
// links it anyway.
import Foundation
import StrataSchema

/// Finds and reads the schema files among the paths the compiler is given.
struct SchemaFileFinder {
    /// File name endings of schema files.
    static let suffixes = [".strata.yaml", ".strata.yml"]

    /// Whether `path` names a schema file.
    static func isSchemaFile(_ path: String) -> Bool {
        suffixes.contains { path.hasSuffix($0) }
    }

    private(set) var diagnostics: [Diagnostic] = []

    /// Every schema file among `paths`, read into sources, sorted by path. Folders are searched recursively,
    /// skipping hidden folders (`.build`, `.git`): a package's build folder holds other packages' schemas.
    /// A file named explicitly that is not a schema file is ignored with a warning.
    mutating func sources(in paths: [String]) -> [SchemaSource] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                diagnostics.append(.error("no such file or folder '\(path)': check the path",
                    at: SourceLocation(path: path, line: 1, column: 1)))
                continue
            }
            if isDirectory.boolValue {
                var visited: Set<String> = []
                collect(in: path, into: &files, visited: &visited)
            } else if Self.isSchemaFile(path) {
                files.append(path)
            } else {
                diagnostics.append(.warning("'\(path)' is not a schema file (names end in "
                    + "\(Self.suffixes.joined(separator: " or "))): ignored", at: nil))
            }
        }
        var seen: Set<String> = []
        var sources: [SchemaSource] = []
        for file in files.sorted() where seen.insert(file).inserted {
            if let source = read(file) { sources.append(source) }
        }
        return sources
    }

    private func collect(in folder: String, into files: inout [String], visited: inout Set<String>) {
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard visited.insert(resolved).inserted, visited.count < 10_000,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                collect(in: path, into: &files, visited: &visited)
            } else if Self.isSchemaFile(name) {
                files.append(path)
            }
        }
    }

    private mutating func read(_ path: String) -> SchemaSource? {
        let start = SourceLocation(path: path, line: 1, column: 1)
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.append(.error("cannot read '\(path)': check that it is a readable file", at: start))
            return nil
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            diagnostics.append(.error("'\(path)' is not UTF-8 text: save it as UTF-8", at: start))
            return nil
        }
        return SchemaSource(path: path, text: text)
    }
}

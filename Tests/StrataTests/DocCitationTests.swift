import Foundation
import XCTest

/// The repository's sources and docs cite only pages that are in it: `docs/SCHEMA.md`, `docs/API.md`,
/// `docs/BENCHMARKS.md` and the other pages under `docs/`, never a reference kept outside the repository.
final class DocCitationTests: XCTestCase {
    /// The package root: this file is `Tests/StrataTests/DocCitationTests.swift`.
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().standardizedFileURL

    /// A citation of one of the reference pages, with the path written before it (`docs/`, `../shared/` or none).
    private let citation = try! NSRegularExpression(
        pattern: #"((?:[A-Za-z0-9_.-]+/)*)(?<![A-Za-z0-9_-])(SCHEMA|DESIGN|API|BENCHMARKS)\.md"#)

    func testEveryCitedReferencePageIsUnderDocs() throws {
        var problems: [String] = []
        for file in try citingFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = String(file.path.dropFirst(root.path.count + 1))
            let inDocs = relative.hasPrefix("docs/")
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                if line.contains("../" + "shared") || line.contains("/work/" + "shared") {
                    problems.append("\(relative):\(number + 1): cites a folder outside the repository")
                }
                let range = NSRange(line.startIndex..., in: line)
                for match in citation.matches(in: line, range: range) {
                    let prefix = (Range(match.range(at: 1), in: line).map { String(line[$0]) }) ?? ""
                    let page = (Range(match.range(at: 2), in: line).map { String(line[$0]) }) ?? ""
                    let inDocsFolder = prefix.hasSuffix("docs/") || (prefix.isEmpty && inDocs)
                    let exists = FileManager.default.fileExists(
                        atPath: root.appendingPathComponent("docs/\(page).md").path)
                    if !inDocsFolder || !exists {
                        problems.append("\(relative):\(number + 1): cites '\(prefix)\(page).md', not a page under docs/")
                    }
                }
            }
        }
        XCTAssertEqual(problems, [], "\n" + problems.joined(separator: "\n"))
    }

    func testTheReferencePagesExist() {
        for page in ["SCHEMA", "API", "BENCHMARKS", "SCHEMA-NOTES", "MIGRATIONS", "NOTIFICATIONS", "QUERIES"] {
            let path = root.appendingPathComponent("docs/\(page).md").path
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "docs/\(page).md is missing")
        }
    }

    /// Every Swift, Markdown and YAML file of the repository but this one, outside hidden folders (`.build`, `.git`).
    private func citingFiles() throws -> [URL] {
        let extensions: Set<String> = ["swift", "md", "yaml", "yml"]
        let own = URL(fileURLWithPath: #filePath).standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: root.path]) }
        var files: [URL] = []
        for case let url as URL in walker where extensions.contains(url.pathExtension) {
            let file = url.standardizedFileURL
            if file.path != own && file.path.hasPrefix(root.path + "/") { files.append(file) }
        }
        XCTAssertFalse(files.isEmpty, "no Swift, Markdown or YAML file found under \(root.path)")
        return files
    }
}

import Foundation

/// The schema language's whole example, read from docs/SCHEMA.md ("A whole example") so that the tests that
/// compile it and the app built from it always use the text the documentation shows.
package enum DocumentedExample {
    /// The YAML of docs/SCHEMA.md's "A whole example" section (the `Contacts` schema, version 1).
    package static func contactsSchema(file: String = #filePath) throws -> String {
        let root = ConsumerPackage.repositoryRoot(from: file)
        let url = root.appendingPathComponent("docs/SCHEMA.md")
        let page = try String(contentsOf: url, encoding: .utf8)
        guard let section = page.components(separatedBy: "## A whole example").dropFirst().first,
              let block = section.components(separatedBy: "```yaml\n").dropFirst().first?
                .components(separatedBy: "```").first
        else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [
                NSFilePathErrorKey: url.path,
                NSLocalizedDescriptionKey: "\(url.path): no \"A whole example\" section with a yaml block",
            ])
        }
        return block
    }
}

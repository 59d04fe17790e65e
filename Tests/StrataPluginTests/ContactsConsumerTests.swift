import Foundation
import StrataTestSupport
import XCTest

/// An app package built from the schema language's Contacts example (docs/SCHEMA.md, "A whole example"), exactly
/// as written there, with `StrataPlugin` (warnings as errors): the example compiles, and the app
/// exercises every type it brings through the public API: an embedded `Address` by link and list, a `set<string>`,
/// a `map<int>`, a `map<any?>`, an `any`, a `decimal`, `objectId` primary keys, a full-text `TEXT` query, the
/// contract's filter over all of them, uniqueness rules and the `deny` and `cascade` delete rules.
///
/// This builds a whole package (minutes on a small machine). Skip it only on purpose, with
/// `STRATA_SKIP_INTEGRATION=1`.
final class ContactsConsumerTests: XCTestCase {
    func testTheContactsExampleBuildsAndItsAppUsesEveryNewType() throws {
        if ProcessInfo.processInfo.environment["STRATA_SKIP_INTEGRATION"] == "1" {
            throw XCTSkip("STRATA_SKIP_INTEGRATION=1")
        }
        let package = try ConsumerPackage(
            strataRoot: ConsumerPackage.repositoryRoot(from: #filePath), targetName: "ContactsApp")
        try package.write(ContactsConsumerSources.schema(), to: "Schemas/ContactsApp/Contacts.v1.strata.yaml")
        try package.write(ContactsConsumerSources.main, to: "Sources/ContactsApp/main.swift")
        let build = try package.build()
        XCTAssertTrue(build.succeeded, build.description)
        guard build.succeeded else { return }
        let run = try package.run()
        XCTAssertTrue(run.succeeded, run.description)
        XCTAssertFalse(run.output.contains("FAILED"), run.description)
        XCTAssertTrue(run.output.contains("contacts ok: 1 people, 0 companies"), run.description)
    }

    /// docs/SCHEMA.md's whole example, which the package is built from, is the Contacts schema with every rule.
    func testTheDocumentedExampleIsTheContactsSchema() throws {
        let schema = try ContactsConsumerSources.schema()
        XCTAssertTrue(schema.hasPrefix("schema: Contacts\nversion: 1\n"), schema)
        for rule in ["embedded: true", "unique: true", "unique: [[firstName, lastName]]", "onDelete: deny",
                     "onDelete: cascade", "fullText: true", "set<string>", "map<any?>", "type: decimal"] {
            XCTAssertTrue(schema.contains(rule), "the example lost \(rule)")
        }
    }
}

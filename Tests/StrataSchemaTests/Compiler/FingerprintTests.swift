import StrataSchema
import StrataSchemaCompiler
import XCTest

final class FingerprintTests: SchemaTestCase {
    private func fingerprint(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        loadVersion(text, file: file, line: line)?.fingerprint
    }

    func testFingerprintIsSixteenHexDigitsAndStable() throws {
        let value = try XCTUnwrap(fingerprint(Examples.libraryV3))
        XCTAssertEqual(value.count, 16)
        XCTAssertTrue(value.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        // Pinned: the fingerprint is recorded in database files, so it must not change between releases or
        // machines. If this fails after an intended change to the canonical text, old files stop opening.
        XCTAssertEqual(value, "2fca806796c8af31")
    }

    func testFingerprintOfAKnownTextIsFNV1a() throws {
        let version = try XCTUnwrap(loadVersion(Examples.minimal()))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in version.canonicalText.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        XCTAssertEqual(version.fingerprint, String(format: "%016llx", hash))
        XCTAssertEqual(version.canonicalText, """
            schema "Shop"
            version 1
            removedModels 
            model "Item"
             primaryKey -
             renamedFrom -
             migrate -
             removed 
             indexes 
             property "id" int default=- indexed=false transient=false renamedFrom=-

            """)
    }

    func testFingerprintIgnoresDocsLocationsAndKeyOrder() {
        let box = "\n  Box:\n    properties:\n      a: int"
        let first = Examples.shop(1, Examples.item(["id: int", "name: string"]) + box)
        let second = "# a comment\nversion: 1\nschema: Shop\nmodels:\n  Box:\n    doc: Boxes.\n    properties:\n"
            + "      a: { type: int, doc: A. }\n  Item:\n    properties:\n      name: string\n      id: int\n"
        XCTAssertNotNil(fingerprint(first))
        XCTAssertEqual(fingerprint(first), fingerprint(second))
    }

    func testFingerprintChangesWithEveryStoredDetail() {
        let base = Examples.minimal(properties: "id: int\n      name: string")
        let variants = [
            Examples.minimal(properties: "id: int\n      name: string?"),
            Examples.minimal(properties: "id: int\n      name: { type: string, default: x }"),
            Examples.minimal(properties: "id: int\n      name: { type: string, indexed: true }"),
            Examples.minimal(properties: "id: int\n      name: string", extra: "    primaryKey: id"),
            Examples.minimal(properties: "id: int\n      name: string", extra: "    indexes: [[id, name]]"),
            Examples.minimal(properties: "id: int8\n      name: string"),
            Examples.minimal(version: 2, properties: "id: int\n      name: string"),
            Examples.minimal(properties: "id: int\n      title: string"),
        ]
        let baseFingerprint = fingerprint(base)
        var seen: Set<String> = []
        for variant in variants {
            let value = fingerprint(variant)
            XCTAssertNotEqual(value, baseFingerprint, variant)
            if let value { XCTAssertTrue(seen.insert(value).inserted, "two variants share a fingerprint") }
        }
    }
}

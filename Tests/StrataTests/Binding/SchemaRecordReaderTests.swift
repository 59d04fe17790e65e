import Foundation
import XCTest

@testable import Strata

/// The schema record every open reads: the direct reader must agree with `JSONDecoder` on what the writer stores,
/// and decline (so that the caller falls back to `JSONDecoder`) on anything else.
final class SchemaRecordReaderTests: XCTestCase {
    private func read(_ text: String) -> SchemaRecord? {
        var reader = SchemaRecordReader(Array(text.utf8))
        return reader.record()
    }

    func testReaderDecodesWhatTheEncoderWrites() throws {
        let record = SchemaRecord(
            schema: "Library", version: 3, fingerprints: ["1": "86a83a6410fca8d3", "2": "00ff", "3": "abc"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var reader = SchemaRecordReader(Array(try encoder.encode(record)))
        XCTAssertEqual(reader.record(), record)
    }

    func testReaderAcceptsAnyKeyOrderAndWhitespace() {
        let record = read(" {\n \"version\" : 12 ,\t\"fingerprints\":{ }, \"schema\":\"Shop\"}\r\n")
        XCTAssertEqual(record, SchemaRecord(schema: "Shop", version: 12, fingerprints: [:]))
    }

    func testReaderDeclinesWhatItDoesNotFullyUnderstand() {
        let declined = [
            "",
            "{}",
            "{\"schema\":\"A\",\"version\":1}",
            "{\"schema\":\"A\",\"version\":1,\"fingerprints\":{},\"extra\":0}",
            "{\"schema\":\"A\",\"version\":1.5,\"fingerprints\":{}}",
            "{\"schema\":\"A\",\"version\":01,\"fingerprints\":{}}",
            "{\"schema\":\"A\",\"version\":99999999999999999999,\"fingerprints\":{}}",
            "{\"schema\":\"A\\/B\",\"version\":1,\"fingerprints\":{}}",
            "{\"schema\":\"A\",\"version\":1,\"fingerprints\":{\"1\":\"a\",\"1\":\"b\"}}",
            "{\"schema\":\"A\",\"schema\":\"B\",\"version\":1,\"fingerprints\":{}}",
            "{\"schema\":\"A\",\"version\":1,\"fingerprints\":{}} trailing",
            "{\"schema\":\"A\",\"version\":1,\"fingerprints\":{\"1\":2}}",
            "{\"schema\":\"A\",\"version\":1,\"fingerprints\":{\"1\":\"a\"",
            "{\"schema\":\"A",
        ]
        for text in declined { XCTAssertNil(read(text), text) }
    }

    func testReaderDeclinesInvalidUTF8() {
        var bytes = Array("{\"schema\":\"A\",\"version\":1,\"fingerprints\":{}}".utf8)
        bytes[11] = 0xFF
        var reader = SchemaRecordReader(bytes)
        XCTAssertNil(reader.record())
    }

    func testReaderKeepsNegativeAndLargeVersions() {
        XCTAssertEqual(read("{\"schema\":\"A\",\"version\":-4,\"fingerprints\":{}}")?.version, -4)
        XCTAssertEqual(read("{\"schema\":\"A\",\"version\":\(Int.max),\"fingerprints\":{}}")?.version, Int.max)
        XCTAssertEqual(read("{\"schema\":\"A\",\"version\":\(Int.min),\"fingerprints\":{}}")?.version, Int.min)
    }
}

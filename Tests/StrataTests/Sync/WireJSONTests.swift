import Foundation
import StrataSyncWire
import StrataTestSupport
import XCTest

@testable import Strata

/// The wire types' own JSON reader and writer (`WireJSONReader`, `WireJSONWriter`, `WireJSONCodable`) read and
/// write what `JSONDecoder` and `JSONEncoder` do for them (docs/SYNC.md, "Protocol"), so a client or server on
/// either side of the change understands the other, and files written before read the same.
final class WireJSONTests: XCTestCase {
    func testValuesReadAsJSONDecoderReadsThem() throws {
        let texts = [
            "null", "true", "false", "0", "-0", "42", "-9223372036854775808", "9223372036854775807",
            "9223372036854775808", "1.5", "-2.25e3", "1e-5", "0.1", "\"\"", "\"plain\"", "\"a \\\" quote\"",
            "\"tab\\tnew\\nline\\\\ \\/ \\u00e9 \\ud83d\\ude00\"", "\"caf\u{e9} \u{1F600}\"", "[]", "{}",
            "[1, \"two\", [3.5, null], {\"k\": false}]", " { \"b\" : [ ] , \"a\" : { \"c\" : -1 } } ",
        ]
        for text in texts {
            let expected = try JSONDecoder().decode(SyncValue.self, from: Data(text.utf8))
            XCTAssertEqual(try SyncValue.parse(text), expected, text)
        }
    }

    func testMalformedJSONIsRefusedWithItsOffset() {
        for text in ["", "{", "[1,]", "[1 2]", "\"open", "01", "1.", "-", "tru", "{\"a\" 1}", "1 2", "\"\\x\""] {
            XCTAssertThrowsError(try SyncValue.parse(text), text) { error in
                XCTAssertTrue(error is WireJSONError, "\(text): \(error)")
            }
        }
        XCTAssertThrowsError(try SyncChange(wireJSON: Array(#"{"seq": 1, "hlc": "h", "model": "M"}"#.utf8))) {
            XCTAssertTrue(String(describing: $0).contains("'object'"), "\($0)")
        }
    }

    func testChangesAndPagesMatchTheCodableForms() throws {
        var generator = SeededGenerator(seed: 30)
        for round in 0..<200 {
            let changes = (0..<Int.random(in: 1...8, using: &generator)).map { index in
                randomChange(seq: Int64(round * 10 + index + 1), using: &generator)
            }
            let page = DownloadResponse(
                changes: changes.enumerated().map {
                    ServerChange(serverSeq: Int64(100 + $0.offset), clientId: "client \(round)", change: $0.element)
                }, last: Int64(100 + changes.count), more: round.isMultiple(of: 2))
            // What JSONEncoder writes, the wire reader reads, and the other way round.
            XCTAssertEqual(try DownloadResponse(wireJSON: try JSONEncoder().encode(page)), page)
            XCTAssertEqual(try JSONDecoder().decode(DownloadResponse.self, from: Data(page.wireJSON)), page)
            // A batch sent ahead names the change before it; others leave `after` out.
            let upload = UploadRequest(
                clientId: "c\(round)", changes: changes, after: round.isMultiple(of: 3) ? nil : Int64(round))
            XCTAssertEqual(try UploadRequest(wireJSON: try JSONEncoder().encode(upload)), upload)
            XCTAssertEqual(try JSONDecoder().decode(UploadRequest.self, from: Data(upload.wireJSON)), upload)
        }
        for keepsOrder in [false, true] {
            let answer = UploadResponse(
                acknowledged: 7, accepted: 5, duplicates: 2, serverSeq: 91, keepsOrder: keepsOrder)
            XCTAssertEqual(try UploadResponse(wireJSON: try JSONEncoder().encode(answer)), answer)
            XCTAssertEqual(try JSONDecoder().decode(UploadResponse.self, from: Data(answer.wireJSON)), answer)
        }
        // An earlier server's answer has no `keepsOrder`: it does not keep order, read either way.
        let earlier = Array(#"{"acknowledged": 7, "accepted": 5, "duplicates": 2, "serverSeq": 91}"#.utf8)
        XCTAssertFalse(try UploadResponse(wireJSON: earlier).keepsOrder)
        XCTAssertFalse(try JSONDecoder().decode(UploadResponse.self, from: Data(earlier)).keepsOrder)
    }

    func testCanonicalTextOfPlainValuesIsJSONEncodersText() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let values: [SyncValue] = [
            .null, .bool(true), .bool(false), .integer(0), .integer(-17), .integer(.max), .integer(.min),
            .string(""), .string("n1"), .string("a/b c~{}"), .string("quote \" inside"), .string("back\\slash"),
            .string("line\nbreak"), .string("caf\u{e9}"), .string("\t\u{01}x\u{19}\r\u{08}\u{0C}"),
            .string("\"lead"), .string("trail\\"), .string("mixed \u{e9}\n\"\u{1F600}\\ end"), .number(1.5),
            .array([.integer(1), .string("x")]),
            .object(["b": .integer(1), "a": .null]),
        ]
        for value in values {
            let expected = String(decoding: try encoder.encode(value), as: UTF8.self)
            XCTAssertEqual(value.canonicalText, expected, "\(value)")
        }
    }

    func testObjectStatesReadAsTheCodableFormAndBack() throws {
        var state = ObjectSyncState()
        state.created = "0000000000000001-0000000000-a"
        state.fields = [
            "title": .init(hlc: "h1", removed: false, value: .string("T")),
            "note": .init(hlc: "h2", removed: false, value: nil),
        ]
        state.sets = ["tags": ["\"x\"": .init(hlc: "h3", removed: true, value: .string("x"))]]
        state.maps = ["scores": ["k": .init(hlc: "h4", removed: false, value: .integer(3))]]
        state.serverLists = [
            "items": .init(
                slots: [
                    .init(id: "e1", position: "m", value: .null), .init(id: "e2", position: "n", value: .number(2.5)),
                ],
                removed: ["e0", "e9"])
        ]
        state.lists = ["items": .init(slots: [.init(id: "e1", position: "m", value: .integer(1))], removed: [])]
        state.local = 12
        let codable = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        XCTAssertEqual(try ObjectSyncState(stateJSON: codable), state)
        XCTAssertEqual(try JSONDecoder().decode(ObjectSyncState.self, from: Data(state.stateJSON.utf8)), state)
        var deleted = ObjectSyncState()
        deleted.created = "c"
        deleted.deleted = "d"
        XCTAssertEqual(try ObjectSyncState(stateJSON: deleted.stateJSON), deleted)
    }

    // MARK: Support

    private func randomValue(depth: Int = 0, using generator: inout SeededGenerator) -> SyncValue {
        switch Int.random(in: 0..<(depth < 2 ? 8 : 6), using: &generator) {
        case 0: return .bool(Bool.random(using: &generator))
        case 1: return .integer(Int64.random(in: .min ... .max, using: &generator))
        case 2: return .number(Double(Int.random(in: -1000...1000, using: &generator)) + 0.25)
        case 3: return .string(randomText(using: &generator))
        case 4: return .integer(Int64.random(in: -5...5, using: &generator))
        case 5: return .string("")
        case 6:
            return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in
                randomValue(depth: depth + 1, using: &generator)
            })
        default:
            var members: [String: SyncValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                members[randomText(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    private func randomText(using generator: inout SeededGenerator) -> String {
        let pieces = ["a", "Z", "7", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{e9}", "\u{1F600}", "\u{7F}"]
        return (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    private func randomChange(seq: Int64, using generator: inout SeededGenerator) -> SyncChange {
        let op = SyncOperation.allCases.randomElement(using: &generator)!
        let maybe = { (generator: inout SeededGenerator) -> String? in
            Bool.random(using: &generator) ? self.randomText(using: &generator) : nil
        }
        // `null` and no value read the same (nil), as with JSONDecoder: leave `.null` out of `value`.
        var value: SyncValue? = Bool.random(using: &generator) ? randomValue(using: &generator) : nil
        if value == .null { value = nil }
        return SyncChange(
            seq: seq, hlc: HybridClock.reading(wall: seq, counter: 0, clientID: "c"), model: "Model",
            object: Bool.random(using: &generator) ? .integer(seq) : .string(randomText(using: &generator)), op: op,
            property: maybe(&generator), value: value, element: maybe(&generator), position: maybe(&generator),
            key: maybe(&generator))
    }
}

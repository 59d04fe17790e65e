import XCTest

@testable import StrataSyncServer

/// The server's trace (`SyncTrace`, docs/SYNC.md "Performance") names an upload by the client's change numbers it
/// spans, the same way at every step (received, connection asked for and lent, locked and loaded, written,
/// committed), so that a reader can put one upload's steps side by side.
final class UploadTraceTests: XCTestCase {
    func testAnUploadIsNamedByItsFirstAndLastChangeNumbers() throws {
        let validator = ChangeValidator(schema: try Fixtures.schema([Fixtures.notesV1]), clientID: "c1")
        let changes = try [3, 4, 9].enumerated().map { index, seq in
            try validator.validate(
                StoreHarness.createNote("n\(seq)", seq: Int64(seq), hlc: Fixtures.hlc(Int64(100 + seq), "c1")), index: index)
        }
        XCTAssertEqual(UploadTransaction.range(changes), "3-9")
        XCTAssertEqual(UploadTransaction.range(Array(changes.prefix(1))), "3-3")
        XCTAssertEqual(UploadTransaction.range([]), "0-0")
    }
}

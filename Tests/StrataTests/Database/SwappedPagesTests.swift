import Foundation
import StrataStorage
import XCTest

@testable import Strata

/// Issue #22 item 1 where it was found: two 4 KiB pages of a clear file, each holding a long string, swapped. Each
/// page is a whole node with a valid checksum, so before nodes were bound to their pages the objects read each
/// other's names and `verify()` called the file healthy. Now it is `corruptFile`, naming the file and the page.
final class SwappedPagesTests: DatabaseTestCase {
    /// Names of one length (so a swapped node fits the other's reference exactly) and 2,000 bytes (one page each,
    /// in a node of its own).
    private static func name(_ id: Int) -> String {
        let unit = "person-\(id)-"
        return String(String(repeating: unit, count: 2_000 / unit.count + 1).prefix(2_000))
    }

    func testSwappedPagesOfLongStringsAreDamageNotAnotherObjectsName() throws {
        configuration.durability = .full
        do {
            let db = try openDatabase()
            try db.write { for i in 0..<200 { db.add(Person(id: i, name: Self.name(i))) } }
            // A later commit: its record lists only its own nodes, so the swapped ones are found by reading them,
            // not by opening (which would fall back to the version before).
            try db.write { db.add(Person(id: 1_000, name: "later")) }
            XCTAssertEqual(try db.verify().objects, 201)
            db.invalidate()
        }
        var bytes = [UInt8](try Data(contentsOf: configuration.fileURL))
        let marker = Array("person-".utf8)
        let namePages = stride(from: 4096, to: bytes.count, by: 4096).filter {
            Array(bytes[($0 + 32)..<($0 + 32 + marker.count)]) == marker
        }
        XCTAssertGreaterThanOrEqual(namePages.count, 200)
        let (first, second) = (namePages[10], namePages[150])
        let firstPage = Array(bytes[first..<(first + 4096)])
        bytes.replaceSubrange(first..<(first + 4096), with: bytes[second..<(second + 4096)])
        bytes.replaceSubrange(second..<(second + 4096), with: firstPage)
        try Data(bytes).write(to: configuration.fileURL)

        let db = try openDatabase()
        XCTAssertThrowsError(try db.verify()) { error in
            guard case StrataError.corruptFile(let path, let location, let detail) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(path, configuration.fileURL.path)
            XCTAssertTrue(location.contains("page \(first / 4096)") || location.contains("page \(second / 4096)"), location)
            XCTAssertTrue(detail.contains("not of page"), detail)
        }
    }
}

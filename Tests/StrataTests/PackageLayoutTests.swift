import XCTest

final class PackageLayoutTests: XCTestCase {
    func testTestTargetRuns() {
        XCTAssertEqual(1 + 1, 2)
    }
}

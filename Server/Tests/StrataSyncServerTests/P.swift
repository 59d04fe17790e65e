import XCTest
final class PTests: XCTestCase { func testX() {} }

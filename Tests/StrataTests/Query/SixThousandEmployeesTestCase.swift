import Foundation
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// The iteration suites' fixture: a database of 6,000 employees over several clusters, every other one 50 or older
/// (`e0`, `e2`, …), each paid its number, opened afresh for each test.
class SixThousandEmployeesTestCase: StaffTestCase {
    var db: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for index in 0..<6_000 {
                db.create(Employee.self, value: [
                    "name": "e\(index)", "age": index % 2 == 0 ? 50 + index % 40 : 10, "hired": true,
                    "salary": Double(index), "badge": UUID(),
                ])
            }
        }
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    /// Results of `age >= 50` made afresh (nothing cached), which a loop scans as it goes.
    func older() throws -> Results<Employee> { try db.objects(Employee.self).filter("age >= 50") }
}

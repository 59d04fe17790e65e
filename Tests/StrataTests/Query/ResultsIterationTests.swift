import Foundation
import XCTest

@testable import Strata

/// A `for` loop over `Results` visits what the results held when the loop began.
final class ResultsIterationTests: StaffTestCase {
    private var db: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for (index, name) in ["Ana", "Bo", "Cy", "Di", "Ed"].enumerated() {
                db.create(Employee.self, value: ["name": name, "age": 20 + index, "hired": true, "salary": 1000.0, "badge": UUID()])
            }
        }
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    func testDeletingInsideALoopVisitsEveryObjectOnce() throws {
        let adults = try db.objects(Employee.self).filter("age >= 18").sorted(byKeyPath: "name")
        var visited: [String] = []
        try db.write {
            for employee in adults {
                visited.append(employee.name)
                db.delete(employee)
            }
        }
        XCTAssertEqual(visited, ["Ana", "Bo", "Cy", "Di", "Ed"])
        XCTAssertTrue(adults.isEmpty)
    }

    func testChangingTheFilteredPropertyInsideALoopVisitsEveryObjectOnce() throws {
        let adults = try db.objects(Employee.self).filter("age >= 18").sorted(byKeyPath: "name")
        var visited: [String] = []
        try db.write {
            for employee in adults {
                visited.append(employee.name)
                employee.age = 5
            }
        }
        XCTAssertEqual(visited, ["Ana", "Bo", "Cy", "Di", "Ed"])
        XCTAssertEqual(adults.count, 0)
    }

    func testALoopSeesTheObjectsOfTheCurrentVersion() throws {
        let all = db.objects(Employee.self)
        XCTAssertEqual(all.map(\.name).sorted(), ["Ana", "Bo", "Cy", "Di", "Ed"])
        try db.write { db.delete(all[0]) }
        var names: [String] = []
        for employee in all { names.append(employee.name) }
        XCTAssertEqual(names.count, 4)
    }
}

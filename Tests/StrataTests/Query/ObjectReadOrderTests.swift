import Foundation
import XCTest

@testable import Strata

/// Properties read right whatever order objects are read in: a read transaction finds an object from the row of
/// the one read before it (galloping forward in its cluster), so reading in key order, against it, at random,
/// across clusters and past deleted objects must all give each object's own values.
final class ObjectReadOrderTests: StaffTestCase {
    /// Several clusters' worth of objects (a cluster holds at most 512).
    private let objectCount = 1_500
    private var db: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for index in 0..<objectCount {
                db.add(Employee(name: "e-\(index)", age: index % 50, salary: Double(index)))
            }
        }
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    /// The number an employee's name and salary were made from (`e-12` and `12.0`), checking they agree.
    private func number(of employee: Employee, file: StaticString = #filePath, line: UInt = #line) -> Int {
        let fromName = Int(employee.name.dropFirst(2)) ?? -1
        XCTAssertEqual(Double(fromName), employee.salary, "name and salary of one object", file: file, line: line)
        return fromName
    }

    func testReadingFilteredObjectsInKeyOrderGivesEachItsOwnValues() throws {
        let sparse = try db.objects(Employee.self).filter("age == 7 OR age == 8 OR age == 40")
        let numbers = sparse.map { number(of: $0) }
        let expected = (0..<objectCount).filter { [7, 8, 40].contains($0 % 50) }
        XCTAssertEqual(numbers, expected)
    }

    func testReadingObjectsAgainstKeyOrderGivesEachItsOwnValues() throws {
        let descending = db.objects(Employee.self).sorted(byKeyPath: "salary", ascending: false)
        XCTAssertEqual(descending.map { number(of: $0) }, Array((0..<objectCount).reversed()))
    }

    func testReadingObjectsInRandomOrderGivesEachItsOwnValues() throws {
        let all = Array(db.objects(Employee.self))
        var generator = SystemRandomNumberGenerator()
        let order = (0..<all.count).shuffled(using: &generator)
        for position in order {
            XCTAssertEqual(number(of: all[position]), position)
        }
    }

    func testReadingObjectsInKeyOrderAfterDeletionsTellsDeletedFromLiving() throws {
        let all = Array(db.objects(Employee.self))
        try db.write {
            for index in stride(from: 0, to: objectCount, by: 3) { db.delete(all[index]) }
        }
        for (index, employee) in all.enumerated() {
            let deleted = index % 3 == 0
            XCTAssertEqual(employee.isInvalidated, deleted, "object \(index)")
            if !deleted { XCTAssertEqual(number(of: employee), index) }
        }
    }

    func testWritingInsideAResultsLoopReadsEachObjectsCurrentValues() throws {
        var visited = 0
        for employee in try db.objects(Employee.self).filter("age < 3") {
            let before = employee.salary
            try db.write { employee.salary = before + 0.5 }
            XCTAssertEqual(employee.salary, before + 0.5)
            visited += 1
        }
        XCTAssertEqual(visited, (0..<objectCount).filter { $0 % 50 < 3 }.count)
    }

    func testObjectsReadAfterInvalidateSeeTheNewestVersion() throws {
        let kept = Array(try db.objects(Employee.self).filter("age == 9"))
        XCTAssertEqual(number(of: kept[0]), 9)
        db.invalidate()
        XCTAssertEqual(number(of: kept[0]), 9)
        try db.write { kept[1].salary = 7; kept[1].name = "e-7" }
        db.invalidate()
        XCTAssertEqual(number(of: kept[1]), 7)
    }

    func testReadingAfterAWriteSeesTheNewValues() throws {
        let all = Array(db.objects(Employee.self))
        XCTAssertEqual(number(of: all[700]), 700)
        try db.write {
            all[700].name = "e-7000"
            all[700].salary = 7000
        }
        XCTAssertEqual(number(of: all[700]), 7000)
        XCTAssertEqual(number(of: all[701]), 701)
    }
}

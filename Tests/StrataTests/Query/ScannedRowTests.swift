import Foundation
import StrataStorage
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// A results loop that scans as it goes tells the scan's table the row of each object it hands out
/// (`IncrementalScan.noteRow(ofKeyAt:)`), so the object's first property read skips the search for its row. That
/// row belongs to one cluster of one read version: whatever happens between handing an object out and reading it
/// (other objects read, a write inside the loop, a refresh, a frozen copy, a delete, clusters split by new objects),
/// every object must read its own values in the version its database reads.
final class ScannedRowTests: SixThousandEmployeesTestCase {
    /// The number in an employee's name (`e42` → 42).
    private func number(_ employee: Employee) throws -> Int { try XCTUnwrap(Int(employee.name.dropFirst())) }

    func testEachElementReadsItsOwnRowWhateverIsReadBetween() throws {
        let all = db.objects(Employee.self)
        var previous: Employee?
        var position = 0
        for employee in try older() {
            switch position % 4 {
            case 0: XCTAssertEqual(all[5_999 - position].name, "e\(5_999 - position)")  // another cluster, read first
            case 1: XCTAssertEqual(previous?.salary, Double(2 * (position - 1)))  // another row of this cluster
            default:
                // Now and then a whole loop between (another scan of the table, up to this element's cluster).
                if position % 40 == 2 { XCTAssertTrue(try older().contains { $0.name == "e\(2 * position)" }) }
            }
            XCTAssertEqual(employee.name, "e\(2 * position)")
            XCTAssertEqual(employee.salary, Double(2 * position))
            previous = employee
            position += 1
        }
        XCTAssertEqual(position, 3_000)
    }

    func testAWriteInsideTheLoopChangesDeletesAndSplitsWhatLaterReadsSee() throws {
        var position = 0
        var invalidated = 0
        for employee in try older() {
            switch position {
            case 10:
                try db.write { employee.name = "changed" }
                XCTAssertEqual(employee.name, "changed", "read from the committed version")
            case 20:
                try db.write { employee.salary = -1 }
                XCTAssertEqual(employee.salary, -1)
            case 30:
                try db.write {
                    // Every salary ahead changes, and 3,000 new employees split the last clusters.
                    for ahead in try db.objects(Employee.self).filter("age >= 50 AND salary > 100") {
                        ahead.salary += 0.5
                    }
                    for index in 0..<3_000 {
                        db.create(Employee.self, value: ["name": "n\(index)", "age": 1, "hired": false, "salary": 0.0, "badge": UUID()])
                    }
                }
            case 40:
                try db.write {
                    db.delete(employee)
                    XCTAssertTrue(employee.isInvalidated, "deleted inside the write")
                }
            default: break
            }
            if employee.isInvalidated {
                invalidated += 1
                position += 1
                continue
            }
            if position != 10 { XCTAssertEqual(employee.name, "e\(2 * position)") }
            let expected = position == 20 ? -1 : Double(2 * position) + (position > 30 && 2 * position > 100 ? 0.5 : 0)
            XCTAssertEqual(employee.salary, expected, "element \(position)")
            position += 1
        }
        XCTAssertEqual(position, 3_000)
        XCTAssertEqual(invalidated, 1)
    }

    func testARefreshToAnotherDatabasesCommitIsReadByTheElementsAfterIt() throws {
        let other = try openStaff()
        var position = 0
        for employee in try older() {
            if position == 100 {
                try other.write {
                    for changed in try other.objects(Employee.self).filter("age >= 50") { changed.salary *= 2 }
                }
                XCTAssertTrue(db.refresh())
            }
            XCTAssertEqual(employee.salary, Double(2 * position) * (position >= 100 ? 2 : 1), "element \(position)")
            position += 1
        }
        XCTAssertEqual(position, 3_000)
    }

    func testKeptElementsAndFrozenCopiesReadTheirOwnObjects() throws {
        var kept: [Employee] = []
        var frozen: [Employee] = []
        for employee in try older() {
            let index = try number(employee)
            if index % 100 == 0 { kept.append(employee) }
            if index % 300 == 0 {
                let copy = try employee.freeze()
                XCTAssertEqual(copy.name, employee.name)
                XCTAssertEqual(copy.salary, Double(index))
                frozen.append(copy)
            }
            XCTAssertEqual(employee.salary, Double(index))
        }
        XCTAssertEqual(kept.count, 60)
        for employee in kept.reversed() { XCTAssertEqual(employee.salary, Double(try number(employee))) }
        XCTAssertEqual(frozen.count, 20)
        for copy in frozen { XCTAssertEqual(copy.salary, Double(try number(copy))) }
    }
}

import Foundation
import Observation
import StrataStorage
import XCTest

@_spi(StrataGenerated) @testable import Strata

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

    // MARK: Loops over a column scan of several clusters while the database changes

    /// 6,000 more employees, over several clusters: every other one is 50 or older.
    private func addMany() throws {
        try db.write {
            for index in 0..<6_000 {
                db.create(Employee.self, value: [
                    "name": "e\(index)", "age": index % 2 == 0 ? 50 + index % 40 : 10, "hired": true, "salary": 1.0,
                    "badge": UUID(),
                ])
            }
        }
    }

    func testAScannedLoopVisitsWhatItBeganWithWhileWritesChangeTheResults() throws {
        try addMany()
        let older = try db.objects(Employee.self).filter("age >= 50")
        XCTAssertEqual(older.explain, "scan Employee (age >= 50)")
        let expected = (0..<older.count).map { older[$0].name }
        XCTAssertEqual(expected.count, 3_000)
        let deleted = Set(expected.filter { $0.hasSuffix("4") })
        var visited: [String] = []
        var invalidated = 0
        for employee in older {
            if visited.count + invalidated == 10 {
                // Mid-loop: delete some objects still ahead, make others no longer match, add new matches.
                try changeOlderEmployeesMidLoop(in: db)
            }
            if employee.isInvalidated {
                invalidated += 1
                visited.append("?")
            } else {
                visited.append(employee.name)
            }
        }
        XCTAssertEqual(visited.count, expected.count, "every object the results held when the loop began")
        XCTAssertEqual(
            zip(expected, visited).filter { $0.1 != "?" && $0.0 != $0.1 }.count, 0, "in the order they were held")
        XCTAssertEqual(invalidated, deleted.subtracting(expected.prefix(10)).count, "deleted ones handed out invalidated")
        XCTAssertFalse(visited.contains("late"))
        XCTAssertEqual(older.count, 3_000 - deleted.count - expected.filter { $0.hasSuffix("2") }.count + 1)
    }

    func testAScannedLoopSeesAnotherDatabasesCommitOnlyInItsNextLoop() throws {
        try addMany()
        let older = try db.objects(Employee.self).filter("age >= 50")
        let other = try openStaff()
        var count = 0
        for _ in older {
            count += 1
            if count == 100 {
                try other.write { other.delete(try other.objects(Employee.self).filter("age >= 50 AND age < 60")) }
                db.refresh()
            }
        }
        XCTAssertEqual(count, 3_000)
        XCTAssertEqual(Array(older).count, 3_000 - 750, "the next loop reads the new version")
    }

    func testALoopLeftEarlyLeavesTheResultsWhole() throws {
        try addMany()
        let older = try db.objects(Employee.self).filter("age >= 50")
        for (position, _) in older.enumerated() where position == 70 { break }
        XCTAssertEqual(older.map(\.name).count, 3_000)
        XCTAssertEqual(older.count, 3_000)
        XCTAssertEqual(older.last?.name, "e5998")
    }

    // MARK: Rows moved from one element to the next

    /// The row behind an element (its `ManagedRow`).
    private func row(of employee: Employee) throws -> ManagedRow {
        try XCTUnwrap(employee.managedAccessor as? ManagedRow)
    }

    func testALoopThatDropsEachElementMovesOneRowFromElementToElement() throws {
        try addMany()
        let older = try db.objects(Employee.self).filter("age >= 50")
        let expected = (0..<older.count).map { older[$0].name }
        var names: [String] = []
        var rows = Set<ObjectIdentifier>()
        weak var dropped: Employee?
        for employee in older {
            XCTAssertNil(dropped, "an element the loop let go of is gone, not handed out again")
            names.append(employee.name)
            rows.insert(ObjectIdentifier(try row(of: employee)))
            dropped = employee
        }
        XCTAssertEqual(names, expected)
        XCTAssertEqual(rows.count, 1, "each element's row was moved to the next one")
    }

    func testElementsKeptFromALoopKeepTheirOwnRowsAndObjects() throws {
        try addMany()
        let older = try db.objects(Employee.self).filter("age >= 50")
        let expected = (0..<older.count).map { older[$0].name }
        var kept: [(position: Int, employee: Employee)] = []
        var weakly: [(position: Int, reference: WeakEmployee)] = []
        var previous: Employee?
        for (position, employee) in older.enumerated() {
            // The previous element is still held here when the next is made: its row cannot move.
            if let previous { XCTAssertFalse(try row(of: previous) === row(of: employee)) }
            previous = employee
            if position % 7 == 0 { kept.append((position, employee)) }
            if position % 7 == 3 { weakly.append((position, WeakEmployee(employee))) }
        }
        previous = nil
        XCTAssertEqual(kept.count, (expected.count + 6) / 7)
        for (position, employee) in kept {
            XCTAssertEqual(employee.name, expected[position], "a kept element reads its own object")
            XCTAssertFalse(employee.isInvalidated)
        }
        XCTAssertEqual(Set(try kept.map { ObjectIdentifier(try row(of: $0.employee)) }).count, kept.count)
        XCTAssertTrue(weakly.allSatisfy { $0.reference.employee == nil }, "dropped elements are gone")
        // A kept element still follows its own object through a write.
        let (position, first) = try XCTUnwrap(kept.first)
        try db.write { first.name = "renamed" }
        XCTAssertEqual(first.name, "renamed")
        XCTAssertEqual(kept[1].employee.name, expected[kept[1].position])
        XCTAssertEqual(older.filter { $0.name == "renamed" }.count, 1)
        XCTAssertNotEqual(expected[position], "renamed")
    }

    func testAnElementReadUnderObservationTrackingKeepsItsRow() throws {
        try addMany()
        // Arms property reads for tracking (as a SwiftUI list's read of results does).
        withObservationTracking { _ = db.objects(Employee.self) } onChange: {}
        XCTAssertTrue(db.observationArmed)
        let older = try db.objects(Employee.self).filter("age >= 50")
        // Held weakly: what keeps the row is its tracking, not this test.
        weak var trackedRow: ManagedRow?
        var trackedKey: ObjectKey?
        var names: [String] = []
        for (position, employee) in older.enumerated() {
            if position == 5 {
                names.append(withObservationTracking { employee.name } onChange: {})
                trackedRow = try row(of: employee)
                trackedKey = try row(of: employee).key
            } else {
                names.append(employee.name)
            }
        }
        XCTAssertEqual(names, (0..<older.count).map { older[$0].name })
        XCTAssertEqual(trackedKey, try row(of: older[5]).key)
        if let trackedRow { XCTAssertEqual(trackedRow.key, trackedKey, "a tracked row was moved to another object") }
    }
}

/// An element held weakly.
private final class WeakEmployee {
    weak var employee: Employee?
    init(_ employee: Employee) { self.employee = employee }
}

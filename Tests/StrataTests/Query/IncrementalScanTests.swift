import Foundation
import StrataStorage
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// A loop over fresh results of a column-only filter scans the table a cluster at a time as it goes
/// (`IncrementalScan`), reading the version it began in: it must hand out exactly what evaluating the keys at the
/// loop's start gives, in order, whatever the database does meanwhile; its keys are kept only once it has them all.
final class IncrementalScanTests: SixThousandEmployeesTestCase {
    /// The names `older()` selects, evaluated at once.
    private func expectedNames() throws -> [String] {
        let results = try older()
        return (0..<results.count).map { results[$0].name }
    }

    /// Whether `results` holds its keys for the database's current version.
    private func keysAreKept(_ results: Results<Employee>) -> Bool {
        results.cache.cachedKeys(stamp: db.changeStamp) != nil
    }

    func testTheTableSpansSeveralClusters() throws {
        let table = try db.table(for: try XCTUnwrap(db.schema.model(for: Employee.self)))
        var clusters = 0
        try table.forEachCluster { _ in
            clusters += 1
            return true
        }
        XCTAssertGreaterThan(clusters, 3)
    }

    func testAScannedLoopHandsOutWhatEvaluatingAtOnceGivesAndKeepsTheKeysOnlyAtTheEnd() throws {
        let expected = try expectedNames()
        XCTAssertEqual(expected.count, 3_000)
        let results = try older()
        var names: [String] = []
        var salaries = 0.0
        for employee in results {
            XCTAssertFalse(keysAreKept(results), "the keys are found as the loop goes")
            names.append(employee.name)
            salaries += employee.salary
        }
        XCTAssertEqual(names, expected)
        XCTAssertEqual(salaries, stride(from: 0.0, to: 6_000, by: 2).reduce(0, +))
        XCTAssertTrue(keysAreKept(results), "a loop that ran to the end keeps its keys")
        XCTAssertEqual(results.count, 3_000)
        XCTAssertEqual(results[2_999].name, "e5998")
    }

    func testALoopLeftEarlyKeepsNoKeysAndTheNextLoopStartsOver() throws {
        let results = try older()
        for (position, _) in results.enumerated() where position == 70 { break }
        XCTAssertFalse(keysAreKept(results))
        XCTAssertEqual(results.map(\.name), try expectedNames())
    }

    func testAScannedLoopVisitsWhatItBeganWithWhileAWriteChangesTheResults() throws {
        let expected = try expectedNames()
        let deleted = Set(expected.filter { $0.hasSuffix("4") })
        var visited: [String] = []
        var invalidated = 0
        let results = try older()
        for employee in results {
            if visited.count == 10 {
                // Mid-loop: delete some objects still ahead, make others no longer match, add a new match.
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
        XCTAssertEqual(zip(expected, visited).filter { $0.1 != "?" && $0.0 != $0.1 }.count, 0, "in order")
        XCTAssertEqual(invalidated, deleted.subtracting(expected.prefix(10)).count, "deleted ones handed out invalidated")
        XCTAssertFalse(visited.contains("late"))
        XCTAssertFalse(keysAreKept(results), "keys of an older version are not kept for the new one")
        XCTAssertEqual(results.count, 3_000 - deleted.count - expected.filter { $0.hasSuffix("2") }.count + 1)
    }

    func testAScannedLoopThroughALinkReadsTheLinkedObjectsOfItsStartingVersion() throws {
        // Every odd employee (aged 10) gets the even one before it (50 or older) as mentor.
        try db.write {
            let all = db.objects(Employee.self)
            for index in stride(from: 1, to: 6_000, by: 2) { all[index].mentor = all[index - 1] }
        }
        let filter = "mentor.age >= 50"
        XCTAssertEqual(try db.objects(Employee.self).filter(filter).explain, "scan Employee (mentor.age >= 50)")
        let expected = try db.objects(Employee.self).filter(filter).map(\.name)
        XCTAssertEqual(expected.count, 3_000)
        var iterator = try db.objects(Employee.self).filter(filter).makeIterator()
        // Before the loop's first step, every mentor stops matching: the loop still hands out what it began with.
        try db.write {
            for mentor in try db.objects(Employee.self).filter("age >= 50") { mentor.age = 1 }
        }
        var names: [String] = []
        while let employee = iterator.next() { names.append(employee.name) }
        XCTAssertEqual(names, expected)
        XCTAssertEqual(try db.objects(Employee.self).filter(filter).count, 0)
    }

    func testAScannedLoopReadsItsVersionAcrossARefreshToAnotherDatabasesCommit() throws {
        let expected = try expectedNames()
        let other = try openStaff()
        var names: [String] = []
        let results = try older()
        for employee in results {
            if names.count == 100 {
                try other.write { other.delete(try other.objects(Employee.self).filter("age >= 50 AND age < 60")) }
                XCTAssertTrue(db.refresh())
            }
            // Objects read the database's version: those the other database deleted are invalidated.
            names.append(employee.isInvalidated ? "?" : employee.name)
        }
        XCTAssertEqual(names.count, 3_000)
        XCTAssertEqual(zip(expected, names).filter { $0.1 != "?" && $0.0 != $0.1 }.count, 0)
        XCTAssertEqual(names.filter { $0 == "?" }.count, expected[100...].filter { name in
            let index = Int(name.dropFirst())!
            return (50 + index % 40) < 60
        }.count)
        XCTAssertEqual(Array(try older()).count, 3_000 - 750, "the next loop reads the new version")
    }

    func testLoopsInsideAWriteOrOverAFrozenCopyOrAPerObjectFilterEvaluateAtOnce() throws {
        let expected = try expectedNames()
        try db.write {
            let results = try older()
            var names: [String] = []
            for employee in results {
                XCTAssertTrue(keysAreKept(results), "inside a write the keys are evaluated when the loop starts")
                names.append(employee.name)
            }
            XCTAssertEqual(names, expected)
        }
        let frozen = try db.freeze()
        let frozenResults = try frozen.objects(Employee.self).filter("age >= 50")
        var frozenNames: [String] = []
        for employee in frozenResults {
            XCTAssertNotNil(frozenResults.cache.cachedKeys(stamp: frozen.changeStamp))
            frozenNames.append(employee.name)
        }
        XCTAssertEqual(frozenNames, expected)
        // A filter through a link reads objects one by one: evaluated at once too.
        let linked = try db.objects(Employee.self).filter("age >= 50 AND (mentor == nil OR mentor.age > 5)")
        var count = 0
        for _ in linked {
            XCTAssertTrue(keysAreKept(linked))
            count += 1
        }
        XCTAssertEqual(count, 3_000)
    }

    func testAnEmptyScanAndAScanWithOneMatchInTheLastCluster() throws {
        var count = 0
        for _ in try db.objects(Employee.self).filter("age > 1000") { count += 1 }
        XCTAssertEqual(count, 0)
        XCTAssertEqual(try db.objects(Employee.self).filter("name == 'e5998' AND age >= 0").map(\.name), ["e5998"])
        XCTAssertEqual(try db.objects(Employee.self).filter("name == 'e0' AND age >= 0").map(\.name), ["e0"])
    }
}

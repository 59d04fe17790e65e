import Foundation
import StrataStorage
import XCTest

@testable import Strata

/// A lone `property == %@` rebound from its cached shape is answered by the index lookup its plan remembers
/// (`PlanSlot.equalTo`, `CachedPlan.equalityChoice`), without planning the predicate again: its results must stay
/// those of a full evaluation across writes, in frozen versions, after deletes and when the index goes away.
final class EqualityLookupTests: StaffTestCase {
    private var db: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for index in 0..<200 {
                db.add(IndexedEmployee(name: "name-\(index % 50)", age: 20 + index % 40, salary: Double(index)))
            }
        }
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    /// The salaries of `results`, sorted.
    private func salaries(_ results: Results<IndexedEmployee>) -> [Double] { results.map(\.salary).sorted() }

    /// The salaries of every employee named `name`, by a scan of all of them (no index, no cached plan).
    private func scanned(_ name: String, in database: Database? = nil) -> [Double] {
        (database ?? db).objects(IndexedEmployee.self).filter { $0.name == name }.map(\.salary).sorted()
    }

    func testARepeatedEqualityIsLookedUpThroughItsRememberedIndex() throws {
        let employees = db.objects(IndexedEmployee.self)
        let first = try employees.filter("name == %@", "name-3")
        XCTAssertEqual(salaries(first), scanned("name-3"))
        let plan = try XCTUnwrap(first.query.planSlot.plan)
        for name in ["name-7", "nobody", "name-49", "name-7", ""] {
            let results = try employees.filter("name == %@", name)
            XCTAssertTrue(results.query.planSlot.plan === plan)
            XCTAssertEqual(results.query.planSlot.equalTo, .string(name))
            let table = try db.table(for: try XCTUnwrap(db.schema.model(for: IndexedEmployee.self)))
            XCTAssertNotNil(plan.equalityChoice(.string(name), table: table), "the plan must answer \(name) alone")
            XCTAssertEqual(salaries(results), scanned(name), name)
            XCTAssertEqual(results.count, scanned(name).count, name)
            XCTAssertEqual(results.first?.name, scanned(name).isEmpty ? nil : name)
        }
        // `!=` rebinds the same way but is no lookup: every other employee.
        let others = try employees.filter("name != %@", "name-3")
        XCTAssertNil(others.query.planSlot.equalTo)
        XCTAssertEqual(others.count, 200 - scanned("name-3").count)
    }

    func testResultsStayRightAcrossWrites() throws {
        let employees = db.objects(IndexedEmployee.self)
        let results = try employees.filter("name == %@", "name-5")
        XCTAssertEqual(results.count, 4)
        try db.write {
            db.add(IndexedEmployee(name: "name-5", age: 30, salary: 1_000))
            // Inside the write: its own new object, through the index's pending entries.
            XCTAssertEqual(salaries(results), scanned("name-5"))
            XCTAssertEqual(try employees.filter("name == %@", "name-5").count, 5)
        }
        XCTAssertEqual(salaries(results), scanned("name-5"))
        XCTAssertTrue(salaries(results).contains(1_000))
        // A rename moves an object from one lookup to another.
        try db.write {
            let renamed = try XCTUnwrap(employees.filter("name == %@", "name-6").first)
            renamed.name = "name-5"
        }
        XCTAssertEqual(try employees.filter("name == %@", "name-5").count, 6)
        XCTAssertEqual(try employees.filter("name == %@", "name-6").count, 3)
        XCTAssertEqual(salaries(results), scanned("name-5"))
    }

    func testAnObjectFromAOneResultLookupThatIsDeletedIsInvalidated() throws {
        let employees = db.objects(IndexedEmployee.self)
        try db.write { db.add(IndexedEmployee(name: "only-one", age: 41, salary: 7)) }
        let results = try employees.filter("name == %@", "only-one")
        let object = try XCTUnwrap(results.first)
        XCTAssertEqual(object.salary, 7)
        XCTAssertFalse(object.isInvalidated)
        try db.write { db.delete(object) }
        XCTAssertTrue(object.isInvalidated)
        XCTAssertEqual(results.count, 0)
        XCTAssertNil(results.first)
        XCTAssertEqual(Array(try employees.filter("name == %@", "only-one")).count, 0)
        // Deleted inside a loop over the lookup: the loop still hands out the object it started with.
        try db.write { db.add(IndexedEmployee(name: "only-one", age: 42, salary: 8)) }
        try db.write {
            for employee in try employees.filter("name == %@", "only-one") {
                db.delete(employee)
                XCTAssertTrue(employee.isInvalidated)
            }
        }
        XCTAssertEqual(try employees.filter("name == %@", "only-one").count, 0)
    }

    func testAFrozenVersionLooksUpItsOwnObjects() throws {
        let frozen = try db.freeze()
        let before = scanned("name-9")
        try db.write {
            for object in db.objects(IndexedEmployee.self).filter({ $0.name == "name-9" }) { db.delete(object) }
            db.add(IndexedEmployee(name: "name-9", age: 50, salary: 9_999))
        }
        for _ in 0..<2 {
            let old = try frozen.objects(IndexedEmployee.self).filter("name == %@", "name-9")
            XCTAssertEqual(salaries(old), before)
            XCTAssertTrue(old.allSatisfy { $0.isFrozen && !$0.isInvalidated })
            let live = try db.objects(IndexedEmployee.self).filter("name == %@", "name-9")
            XCTAssertEqual(salaries(live), [9_999])
        }
    }

    func testARemovedIndexIsNoLongerLookedUp() throws {
        let employees = db.objects(IndexedEmployee.self)
        let first = try employees.filter("name == %@", "name-1")
        XCTAssertEqual(salaries(first), scanned("name-1"))
        let plan = try XCTUnwrap(first.query.planSlot.plan)
        // Another process drops the index on `name`.
        try dropNameIndexInAnotherWrite()
        let live = try db.table(for: try XCTUnwrap(db.schema.model(for: IndexedEmployee.self)))
        XCTAssertNil(plan.equalityChoice(.string("name-2"), table: live))
        let after = try employees.filter("name == %@", "name-2")
        XCTAssertTrue(after.explain.hasPrefix("scan IndexedEmployee"), after.explain)
        XCTAssertEqual(salaries(after), scanned("name-2"))
        // Planned again without the index: still no lookup.
        XCTAssertNil(plan.equalityChoice(.string("name-2"), table: live))
        XCTAssertEqual(salaries(try employees.filter("name == %@", "name-3")), scanned("name-3"))
    }

    /// Only a lone comparison's plan names an index to look its argument up in (`CachedPlan`'s memo finds it once,
    /// when planned): a shape with a second term, planned on the same indexes, names none, and its results are
    /// still those of a scan.
    func testOnlyALoneComparisonsPlanNamesItsIndex() throws {
        let employees = db.objects(IndexedEmployee.self)
        let table = try db.table(for: try XCTUnwrap(db.schema.model(for: IndexedEmployee.self)))
        let lone = try employees.filter("name == %@", "name-4")
        XCTAssertEqual(salaries(lone), scanned("name-4"))
        XCTAssertNotNil(try XCTUnwrap(lone.query.planSlot.plan).equalityIndex(table: table))
        let both = try employees.filter("name == %@ AND age > %@", "name-4", 30)
        let expected = db.objects(IndexedEmployee.self).filter { $0.name == "name-4" && $0.age > 30 }.map(\.salary)
        XCTAssertEqual(salaries(both), expected.sorted())
        let plan = try XCTUnwrap(both.query.planSlot.plan)
        XCTAssertTrue(plan.isPlanned, "evaluating the results remembers the shape's plan")
        XCTAssertNil(plan.equalityIndex(table: table))
        XCTAssertNil(plan.equalityChoice(.string("name-4"), table: table))
        let next = try employees.filter("name == %@ AND age > %@", "name-5", 30)
        XCTAssertEqual(next.count, db.objects(IndexedEmployee.self).filter { $0.name == "name-5" && $0.age > 30 }.count)
    }

    func testAKeyPathErrorSurvivesCopiesOfItsQuery() throws {
        let employees = db.objects(IndexedEmployee.self)
        let broken = employees.sorted(byKeyPath: "nothing")
        XCTAssertNotNil(broken.keyPathError)
        let filtered = try broken.filter("name == %@", "name-1")
        XCTAssertNotNil(filtered.keyPathError)
        XCTAssertEqual(filtered.count, 0)
        XCTAssertEqual(Array(filtered).count, 0)
        XCTAssertThrowsError(try filtered.fetch())
        XCTAssertEqual(broken.query, employees.sorted(byKeyPath: "nothing").query)
        XCTAssertNotEqual(broken.query, employees.query)
    }

    // MARK: The lone equality kept unbuilt (`LoneEquality`)

    func testALoneEqualityBuildsThePredicateAFreshBindingGives() throws {
        let employees = db.objects(IndexedEmployee.self)
        _ = try employees.filter("name == %@", "name-1")
        let lone = try employees.filter("name == %@", "name-3")
        XCTAssertNotNil(lone.query.loneEquality, "a repeated shape keeps the string, not a bound predicate")
        XCTAssertEqual(lone.query.filterCount, 1)
        let typed = try employees.where { $0.name == "name-3" }
        XCTAssertNil(typed.query.loneEquality)
        XCTAssertEqual(lone.query, typed.query)
        XCTAssertEqual(lone.query.hashValue, typed.query.hashValue)
        XCTAssertNotEqual(lone.query, try employees.filter("name == %@", "name-4").query)
        XCTAssertEqual(lone.query.filters, typed.query.filters)
        XCTAssertEqual(lone.explain, typed.explain)
        XCTAssertTrue(lone.explain.contains("name-3"), lone.explain)
        // `!=` is bound as before.
        XCTAssertNil(try employees.filter("name != %@", "name-3").query.loneEquality)
    }

    func testALoneEqualityTakesFurtherClausesSortsAndLimits() throws {
        let employees = db.objects(IndexedEmployee.self)
        _ = try employees.filter("name == %@", "name-1")
        let lone = try employees.filter("name == %@", "name-8")
        let older = try lone.filter("age > %@", 30)
        XCTAssertNil(older.query.loneEquality)
        XCTAssertEqual(older.query.filterCount, 2)
        let expected = db.objects(IndexedEmployee.self).filter { $0.name == "name-8" && $0.age > 30 }
        XCTAssertEqual(salaries(older), expected.map(\.salary).sorted())
        XCTAssertNotNil(lone.query.loneEquality, "the results it came from keep theirs")
        let sorted = lone.sorted(byKeyPath: "salary", ascending: false)
        XCTAssertEqual(sorted.map(\.salary), scanned("name-8").reversed())
        XCTAssertEqual(Array(sorted.prefix(2)).map(\.salary), Array(scanned("name-8").reversed().prefix(2)))
        XCTAssertEqual(lone.count, scanned("name-8").count)
        XCTAssertEqual(lone.sum(ofProperty: "salary") as Double, scanned("name-8").reduce(0, +))
    }

    func testAnObserverOfALoneEqualitySeesItsChanges() throws {
        let employees = db.objects(IndexedEmployee.self)
        _ = try employees.filter("name == %@", "name-1")
        let lone = try employees.filter("name == %@", "name-2")
        XCTAssertNotNil(lone.query.loneEquality)
        let queue = DispatchQueue(label: "lone equality observer")
        let initial = expectation(description: "initial")
        let update = expectation(description: "update")
        let token = lone.observe(on: queue) { change in
            switch change {
            case .initial(let results): if results.count == 4 { initial.fulfill() }
            case .update(let results, _, let insertions, _):
                XCTAssertEqual(insertions.count, 1)
                XCTAssertEqual(results.count, 5)
                update.fulfill()
            case .error(let error): XCTFail("\(error)")
            }
        }
        wait(for: [initial], timeout: 20)
        try db.write {
            db.add(IndexedEmployee(name: "name-2", age: 33, salary: 77))
            db.add(IndexedEmployee(name: "name-20-not", age: 33, salary: 78))
        }
        wait(for: [update], timeout: 20)
        withExtendedLifetime(token) {}
    }

    func testALoneEqualityWithoutItsIndexScans() throws {
        let employees = db.objects(IndexedEmployee.self)
        _ = try employees.filter("name == %@", "name-1")
        try dropNameIndexInAnotherWrite()
        let lone = try employees.filter("name == %@", "name-4")
        XCTAssertNotNil(lone.query.loneEquality)
        XCTAssertEqual(salaries(lone), scanned("name-4"))
        XCTAssertEqual(lone.count, scanned("name-4").count)
        XCTAssertTrue(lone.explain.hasPrefix("scan IndexedEmployee"), lone.explain)
    }

    /// Drops the index on `IndexedEmployee.name` in a write of the storage engine's own, as another process would,
    /// and refreshes the database to it.
    private func dropNameIndexInAnotherWrite() throws {
        let transaction = try db.store.beginWrite()
        let catalog = try Catalog(writer: transaction)
        let table = try XCTUnwrap(catalog.table(named: "IndexedEmployee"))
        let name = try XCTUnwrap(table.column(named: "name")).key
        try table.removeIndex(try XCTUnwrap(table.index(on: [name])).key)
        try catalog.flush()
        try transaction.commit()
        db.refresh()
    }
}

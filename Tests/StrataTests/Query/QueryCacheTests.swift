import Foundation
import StrataStorage
import Synchronization
import XCTest

@testable import Strata

/// The caches behind `filter(format, args…)`: the process's parses (``PredicateCache``) and each database's query
/// shapes (``QueryPlanCache``: bound templates and the index plans kept with them). A repeated shape with new
/// arguments must answer what a fresh parse, binding and plan answer; a table that gains or loses an index must be planned again;
/// a malformed predicate must fail every time; and the caches must hold up under threads.
final class QueryCacheTests: StaffTestCase {
    private var db: Database!
    private var everyone: [StaffRow] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        try db.write {
            for index in 0..<300 {
                let employee = (name: "name-\(index % 40)", age: 18 + index % 45, salary: Double(index) * 2.5)
                everyone.append(employee)
                db.add(Employee(name: employee.name, age: employee.age, salary: employee.salary))
                db.add(IndexedEmployee(name: employee.name, age: employee.age, salary: employee.salary))
            }
        }
    }

    override func tearDown() {
        db = nil
        everyone = []
        super.tearDown()
    }

    private func salaries<T: StaffMember>(_ results: Results<T>, _ read: (T) -> Double) -> [Double] {
        results.map(read).sorted()
    }

    private func expected(_ include: (StaffRow) -> Bool) -> [Double] {
        Self.expected(in: everyone, include)
    }

    private typealias StaffRow = (name: String, age: Int, salary: Double)

    private static func expected(in everyone: [StaffRow], _ include: (StaffRow) -> Bool) -> [Double] {
        everyone.filter(include).map(\.salary).sorted()
    }

    func testTheSameShapeWithNewArgumentsAnswersEachCall() throws {
        let plain = db.objects(Employee.self)
        let indexed = db.objects(IndexedEmployee.self)
        // Both models under one format string: the templates are kept per model, and each plans its own way.
        for name in ["name-3", "name-39", "nobody", "name-3", "", "name-17"] {
            let want = expected { $0.name == name }
            let lookedUp = try indexed.filter("name == %@", name)
            XCTAssertTrue(lookedUp.explain.hasPrefix("index IndexedEmployee.name"), lookedUp.explain)
            XCTAssertEqual(salaries(lookedUp) { $0.salary }, want, name)
            XCTAssertEqual(lookedUp.count, want.count, name)
            let scanned = try plain.filter("name == %@", name)
            XCTAssertTrue(scanned.explain.hasPrefix("scan Employee"), scanned.explain)
            XCTAssertEqual(salaries(scanned) { $0.salary }, want, name)
        }
        for (age, name) in [(20, "name-1"), (40, "name-2"), (18, "name-"), (70, "x")] {
            let want = expected { $0.age >= age && $0.name.hasPrefix(name) }
            let results = try indexed.filter("age >= %@ AND name BEGINSWITH %@", age, name)
            XCTAssertEqual(salaries(results) { $0.salary }, want, "\(age) \(name)")
            XCTAssertEqual(results.count, want.count, "\(age) \(name)")
        }
    }

    func testALookupChainedWithMoreClausesAnswersThemAll() throws {
        let indexed = db.objects(IndexedEmployee.self)
        for (name, age) in [("name-4", 30), ("name-21", 50), ("nobody", 18)] {
            let lookedUp = try indexed.filter("name == %@", name)
            XCTAssertNotNil(lookedUp.query.planSlot.plan)
            let older = try lookedUp.filter("age > %@", age)
            XCTAssertNil(older.query.planSlot.plan)
            XCTAssertEqual(salaries(older) { $0.salary }, expected { $0.name == name && $0.age > age })
            XCTAssertEqual(older.count, expected { $0.name == name && $0.age > age }.count)
            let typed = try lookedUp.where { $0.age > age }
            XCTAssertNil(typed.query.planSlot.plan)
            XCTAssertEqual(salaries(typed) { $0.salary }, expected { $0.name == name && $0.age > age })
            let sorted = lookedUp.sorted(byKeyPath: "salary", ascending: false)
            XCTAssertEqual(sorted.map(\.salary), expected { $0.name == name }.reversed())
            let topTwo = Array(expected { $0.name == name }.reversed().prefix(2))
            XCTAssertEqual(Array(sorted.prefix(2)).map(\.salary), topTwo)
            // A cached shape's plan stands for a query only when it is the query's one filter.
            let first = try indexed.filter("age > %@", age).filter("name == %@", name)
            XCTAssertNil(first.query.planSlot.plan)
            XCTAssertEqual(salaries(first) { $0.salary }, expected { $0.name == name && $0.age > age })
        }
    }

    func testAShapeKeepsItsPlanAcrossCallsAndArgumentKindsMakeShapesOfTheirOwn() throws {
        let indexed = db.objects(IndexedEmployee.self)
        let first = try indexed.filter("name == %@ AND age > %@", "name-3", 20)
        let plan = try XCTUnwrap(first.query.planSlot.plan)
        XCTAssertFalse(plan.isPlanned)
        XCTAssertEqual(salaries(first) { $0.salary }, expected { $0.name == "name-3" && $0.age > 20 })
        XCTAssertTrue(plan.isPlanned)
        for (name, age) in [("name-7", 30), ("nobody", 18), ("name-7", 60)] {
            let again = try indexed.filter("name == %@ AND age > %@", name, age)
            XCTAssertTrue(again.query.planSlot.plan === plan)
            XCTAssertTrue(again.explain.hasPrefix("index IndexedEmployee.name"), again.explain)
            XCTAssertEqual(salaries(again) { $0.salary }, expected { $0.name == name && $0.age > age })
            XCTAssertEqual(again.count, expected { $0.name == name && $0.age > age }.count)
        }
        // The same string with an argument of another kind is a shape of its own, bound and planned for it.
        let count = db.queryPlans.count
        let byDouble = try indexed.filter("name == %@ AND age > %@", "name-7", 30.5)
        XCTAssertFalse(byDouble.query.planSlot.plan === plan)
        XCTAssertEqual(db.queryPlans.count, count + 1)
        XCTAssertEqual(salaries(byDouble) { $0.salary }, expected { $0.name == "name-7" && Double($0.age) > 30.5 })
        // An argument that fits neither shape fails each time, and is never kept.
        for _ in 0..<2 {
            XCTAssertThrowsError(try indexed.filter("name == %@ AND age > %@", "name-7", "old"))
        }
        XCTAssertEqual(db.queryPlans.count, count + 1)
    }

    /// The owner's last one-argument shape is found without the lock (``QueryPlanCache``'s owner slot): it must
    /// be the shape of the call's model, string and argument type, whichever call came before.
    func testTheOwnersLastShapeAnswersOnlyItsModelStringAndArgumentType() throws {
        let plain = db.objects(Employee.self)
        let indexed = db.objects(IndexedEmployee.self)
        for name in ["name-5", "name-12", "nobody"] {
            let want = expected { $0.name == name }
            // The same string on two models, one after the other: each keeps its own plan.
            let lookedUp = try indexed.filter("name == %@", name)
            XCTAssertTrue(lookedUp.explain.hasPrefix("index IndexedEmployee.name"), lookedUp.explain)
            XCTAssertEqual(salaries(lookedUp) { $0.salary }, want, name)
            let scanned = try plain.filter("name == %@", name)
            XCTAssertTrue(scanned.explain.hasPrefix("scan Employee"), scanned.explain)
            XCTAssertEqual(salaries(scanned) { $0.salary }, want, name)
            // Right after the string's shape: an argument of another type fails, each time, and is never kept.
            let count = db.queryPlans.count
            XCTAssertThrowsError(try indexed.filter("name == %@", 7))
            XCTAssertThrowsError(try indexed.filter("name == %@", 7))
            XCTAssertEqual(db.queryPlans.count, count)
            // Another string of one argument in between, then the first again.
            let older = try indexed.filter("age > %@", 40)
            XCTAssertEqual(salaries(older) { $0.salary }, expected { $0.age > 40 })
            let again = try indexed.filter("name == %@", name)
            XCTAssertTrue(again.query.planSlot.plan === lookedUp.query.planSlot.plan)
            XCTAssertEqual(salaries(again) { $0.salary }, want, name)
        }
    }

    /// `filter(format, string)` (one string, passed as it is) answers what the same call through `[Any]` does, for
    /// a lone equality taken from the owner's slot and for every other shape, on a live and a frozen database.
    func testOneStringArgumentAnswersAsTheArrayOfArgumentsDoes() throws {
        let frozen = try db.freeze()
        for database in [db!, frozen] {
            let indexed = database.objects(IndexedEmployee.self)
            let plain = database.objects(Employee.self)
            for name in ["name-8", "name-8", "name-30", "nobody", ""] {
                for format in ["name == %@", "name != %@", "name BEGINSWITH %@", "name ==[c] %@"] {
                    let direct = try indexed.filter(format, name)
                    let boxed = try indexed.filter(format, arguments: [name])
                    XCTAssertEqual(direct.query, boxed.query, format)
                    XCTAssertEqual(salaries(direct) { $0.salary }, salaries(boxed) { $0.salary }, format)
                    XCTAssertEqual(direct.explain, boxed.explain, format)
                    XCTAssertEqual(
                        salaries(try plain.filter(format, name)) { $0.salary },
                        salaries(try plain.filter(format, arguments: [name])) { $0.salary }, format)
                }
                let want = expected { $0.name == name }
                // Right after the string's shape: the same string with an argument of another type still fails.
                XCTAssertThrowsError(try indexed.filter("name == %@", 9))
                XCTAssertEqual(salaries(try indexed.filter("name == %@", name)) { $0.salary }, want, name)
                XCTAssertEqual(try indexed.filter("name == %@", name).query.loneEquality?.text, name)
            }
        }
    }

    func testAnAndShapePlannedWithoutAnIndexUsesOneAddedLater() throws {
        let plain = db.objects(Employee.self)
        let before = try plain.filter("age > %@ AND name == %@", 30, "name-5")
        XCTAssertTrue(before.explain.hasPrefix("scan Employee"), before.explain)
        XCTAssertEqual(salaries(before) { $0.salary }, expected { $0.age > 30 && $0.name == "name-5" })
        let index = try changeEmployeeTable { table, name in try table.addIndex(on: [name]) }
        db.refresh()
        for (age, name) in [(30, "name-5"), (40, "name-6")] {
            let after = try plain.filter("age > %@ AND name == %@", age, name)
            XCTAssertTrue(after.query.planSlot.plan === before.query.planSlot.plan)
            XCTAssertTrue(after.explain.hasPrefix("index Employee.name"), after.explain)
            XCTAssertEqual(salaries(after) { $0.salary }, expected { $0.age > age && $0.name == name })
            XCTAssertEqual(after.count, expected { $0.age > age && $0.name == name }.count)
        }
        try changeEmployeeTable { table, _ in try table.removeIndex(index) }
        db.refresh()
        let removed = try plain.filter("age > %@ AND name == %@", 20, "name-8")
        XCTAssertTrue(removed.explain.hasPrefix("scan Employee"), removed.explain)
        XCTAssertEqual(salaries(removed) { $0.salary }, expected { $0.age > 20 && $0.name == "name-8" })
        XCTAssertEqual(removed.count, expected { $0.age > 20 && $0.name == "name-8" }.count)
    }

    func testAFrozenVersionAndTheLiveOneEachPlanByTheirOwnIndexes() throws {
        let frozen = try db.freeze()
        let index = try changeEmployeeTable { table, name in try table.addIndex(on: [name]) }
        db.refresh()
        // Alternating between a version without the index and one with it: each evaluation plans by its own.
        for name in ["name-1", "name-2", "name-1"] {
            let live = try db.objects(Employee.self).filter("name == %@", name)
            XCTAssertTrue(live.explain.hasPrefix("index Employee.name"), live.explain)
            XCTAssertEqual(salaries(live) { $0.salary }, expected { $0.name == name })
            let old = try frozen.objects(Employee.self).filter("name == %@", name)
            XCTAssertTrue(old.explain.hasPrefix("scan Employee"), old.explain)
            XCTAssertEqual(salaries(old) { $0.salary }, expected { $0.name == name })
        }
        try changeEmployeeTable { table, _ in try table.removeIndex(index) }
    }

    func testQueriesOfOneShapeCompareByTheirArguments() throws {
        let indexed = db.objects(IndexedEmployee.self)
        let first = try indexed.filter("name == %@", "name-1")
        XCTAssertEqual(first.query, try indexed.filter("name == %@", "name-1").query)
        XCTAssertNotEqual(first.query, try indexed.filter("name == %@", "name-2").query)
        XCTAssertEqual(first.query, try indexed.where { $0.name == "name-1" }.query)
        XCTAssertEqual(first.query.hashValue, try indexed.where { $0.name == "name-1" }.query.hashValue)
    }

    func testANewIndexIsUsedAfterTheDatabaseMovesToItsVersion() throws {
        let plain = db.objects(Employee.self)
        let before = try plain.filter("name == %@", "name-5")
        XCTAssertTrue(before.explain.hasPrefix("scan Employee"), before.explain)
        XCTAssertEqual(salaries(before) { $0.salary }, expected { $0.name == "name-5" })

        let index = try changeEmployeeTable { table, name in try table.addIndex(on: [name]) }
        db.refresh()
        for name in ["name-5", "name-6", "name-5"] {
            let after = try plain.filter("name == %@", name)
            XCTAssertTrue(after.explain.hasPrefix("index Employee.name"), after.explain)
            XCTAssertEqual(salaries(after) { $0.salary }, expected { $0.name == name }, name)
        }

        try changeEmployeeTable { table, _ in try table.removeIndex(index) }
        db.refresh()
        let removed = try plain.filter("name == %@", "name-7")
        XCTAssertTrue(removed.explain.hasPrefix("scan Employee"), removed.explain)
        XCTAssertEqual(salaries(removed) { $0.salary }, expected { $0.name == "name-7" })
    }

    func testAnIndexAddedInsideTheDatabasesOwnWriteIsUsedInThatWrite() throws {
        let plain = db.objects(Employee.self)
        XCTAssertTrue(try plain.filter("name == %@", "name-1").explain.hasPrefix("scan"))
        try db.write {
            let table = try db.table(for: try XCTUnwrap(db.schema.model(for: Employee.self)))
            try table.addIndex(on: [try XCTUnwrap(table.column(named: "name")).key])
            db.noteChange()
            let inside = try plain.filter("name == %@", "name-2")
            XCTAssertTrue(inside.explain.hasPrefix("index Employee.name"), inside.explain)
            XCTAssertEqual(salaries(inside) { $0.salary }, expected { $0.name == "name-2" })
        }
    }

    func testAMalformedPredicateFailsEveryTimeWithItsOffset() throws {
        let all = db.objects(Employee.self)
        for _ in 0..<3 {
            XCTAssertThrowsError(try all.filter("name == %@ AND", "name-1")) { error in
                guard case StrataError.invalidPredicate(let predicate, let offset, _) = error else {
                    return XCTFail("expected invalidPredicate, got \(error)")
                }
                XCTAssertEqual(predicate, "name == %@ AND")
                XCTAssertEqual(offset, 14)
            }
            XCTAssertThrowsError(try all.filter("salary == %@", "rich")) { error in
                guard case StrataError.invalidPredicate(_, let offset, let message) = error else {
                    return XCTFail("expected invalidPredicate, got \(error)")
                }
                XCTAssertEqual(offset, 7)
                XCTAssertTrue(message.contains("cannot compare double"), message)
            }
            XCTAssertThrowsError(try all.filter("wage == %@", 3.0)) { error in
                guard case StrataError.invalidPredicate(_, _, let message) = error else {
                    return XCTFail("expected invalidPredicate, got \(error)")
                }
                XCTAssertTrue(message.contains("wage"), message)
            }
            // The good shape between the failures still answers.
            XCTAssertEqual(try all.filter("salary == %@", 5.0).count, everyone.filter { $0.salary == 5.0 }.count)
        }
    }

    func testThreadsShareTheParsesAndAFrozenDatabasesTemplates() throws {
        // Sendable wrappers of one frozen version: their `results` filter through the frozen database's templates.
        let indexed = try FrozenResults(db.objects(IndexedEmployee.self))
        let plain = try FrozenResults(db.objects(Employee.self))
        let everyone = everyone
        let names = (0..<40).map { "name-\($0)" }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<25 {
                let name = names[(worker * 7 + round) % names.count]
                let age = 18 + (worker + round) % 45
                do {
                    let want = Self.expected(in: everyone) { $0.name == name }
                    let got = try indexed.results.filter("name == %@", name).map(\.salary).sorted()
                    let wantPlain = Self.expected(in: everyone) { $0.age > age && $0.name == name }
                    let gotPlain = try plain.results.filter("age > %@ AND name == %@", age, name).map(\.salary).sorted()
                    if got != want || gotPlain != wantPlain {
                        failures.withLock { $0.append("worker \(worker) round \(round): \(name) \(age)") }
                    }
                    // A malformed string fails on every thread, every time.
                    if (try? plain.results.filter("name == == %@", name)) != nil {
                        failures.withLock { $0.append("worker \(worker): a malformed string was accepted") }
                    }
                } catch {
                    failures.withLock { $0.append("worker \(worker): \(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let templates = indexed.results.database.queryPlans
        XCTAssertLessThanOrEqual(templates.count, templates.capacity)
        XCTAssertGreaterThan(templates.count, 0)
    }

    /// Changes the `Employee` table through the storage engine in a transaction of its own, as another process's
    /// migration would, and commits; `body` gets the table and the key of its `name` column.
    @discardableResult
    private func changeEmployeeTable<R>(_ body: (Table, ColumnKey) throws -> R) throws -> R {
        let transaction = try db.store.beginWrite()
        let catalog = try Catalog(writer: transaction)
        let table = try XCTUnwrap(catalog.table(named: "Employee"))
        let result = try body(table, try XCTUnwrap(table.column(named: "name")).key)
        try catalog.flush()
        try transaction.commit()
        return result
    }
}

import Foundation
import XCTest

@testable import Strata

/// Results behaviour: liveness, sorting, distinct, aggregates, the planner's choices, typed queries and
/// queries on lists and linking objects.
final class QueryResultsTests: StaffDatabaseTestCase {

    @discardableResult
    private func add(_ name: String, age: Int, hired: Bool = true, salary: Double = 1000, bonus: Int? = nil,
                     team: Team? = nil, mentor: Employee? = nil) -> Employee {
        var fields: [String: Any] = ["name": name, "age": age, "hired": hired, "salary": salary, "badge": UUID()]
        if let bonus { fields["bonus"] = bonus }
        if let team { fields["team"] = team }
        if let mentor { fields["mentor"] = mentor }
        return db.create(Employee.self, value: fields)
    }

    // MARK: Liveness

    func testFilteredResultsFollowCommits() throws {
        let adults = try db.objects(Employee.self).filter("age >= 18")
        XCTAssertTrue(adults.isEmpty)
        try db.write { add("Ana", age: 30); add("Bo", age: 12) }
        XCTAssertEqual(adults.map(\.name), ["Ana"])
        try db.write { adults[0].age = 10; add("Cy", age: 40) }
        XCTAssertEqual(adults.map(\.name), ["Cy"])
        try db.write { db.delete(adults[0]) }
        XCTAssertEqual(adults.count, 0)
    }

    func testResultsSeeTheCurrentWritesOwnChanges() throws {
        let hired = try db.objects(Employee.self).filter("hired == true")
        db.beginWrite()
        add("Ana", age: 30)
        XCTAssertEqual(hired.count, 1)
        add("Bo", age: 31, hired: false)
        XCTAssertEqual(hired.map(\.name), ["Ana"])
        db.cancelWrite()
        XCTAssertEqual(hired.count, 0)
    }

    func testSortedResultsReorderAfterAChange() throws {
        try db.write { add("Ana", age: 30); add("Bo", age: 20) }
        let byAge = db.objects(Employee.self).sorted(byKeyPath: "age")
        XCTAssertEqual(byAge.map(\.name), ["Bo", "Ana"])
        try db.write { byAge[0].age = 50 }
        XCTAssertEqual(byAge.map(\.name), ["Ana", "Bo"])
    }

    // MARK: Sorting and distinct

    func testSortIsStableForEqualKeys() throws {
        try db.write {
            for (index, age) in [3, 1, 3, 2, 1, 3].enumerated() { add("e\(index)", age: age) }
        }
        XCTAssertEqual(db.objects(Employee.self).sorted(byKeyPath: "age").map(\.name), ["e1", "e4", "e3", "e0", "e2", "e5"])
        XCTAssertEqual(db.objects(Employee.self).sorted(byKeyPath: "age", ascending: false).map(\.name),
                       ["e0", "e2", "e5", "e3", "e1", "e4"])
    }

    func testSeveralSortKeysDecideInOrder() throws {
        try db.write {
            add("b", age: 2, salary: 5); add("a", age: 2, salary: 5); add("c", age: 1, salary: 9); add("d", age: 2, salary: 7)
        }
        let sorted = db.objects(Employee.self).sorted(by: ["age", SortDescriptor(keyPath: "salary", ascending: false), "name"])
        XCTAssertEqual(sorted.map(\.name), ["c", "d", "a", "b"])
    }

    func testSortThroughALinkPutsNilLinksLast() throws {
        try db.write {
            let core = db.create(Team.self, value: ["code": "C", "title": "Core", "budget": 1])
            let ops = db.create(Team.self, value: ["code": "O", "title": "Ops", "budget": 2])
            add("x", age: 1, team: ops); add("y", age: 1); add("z", age: 1, team: core)
        }
        // As in Realm: an object whose link is nil sorts after the others ascending, before them descending.
        XCTAssertEqual(db.objects(Employee.self).sorted(byKeyPath: "team.title").map(\.name), ["z", "x", "y"])
        XCTAssertEqual(db.objects(Employee.self).sorted(byKeyPath: "team.budget", ascending: false).map(\.name), ["y", "x", "z"])
    }

    func testSortPutsNilBeforeValues() throws {
        try db.write { add("a", age: 1, bonus: 5); add("b", age: 1); add("c", age: 1, bonus: -5) }
        XCTAssertEqual(db.objects(Employee.self).sorted(byKeyPath: "bonus").map(\.name), ["b", "c", "a"])
    }

    func testFilterAfterSortKeepsTheOrder() throws {
        try db.write { add("a", age: 30); add("b", age: 10); add("c", age: 20) }
        let results = try db.objects(Employee.self).sorted(byKeyPath: "age", ascending: false).filter("age > 15")
        XCTAssertEqual(results.map(\.name), ["a", "c"])
    }

    func testDistinctKeepsTheFirstOfEachValue() throws {
        try db.write { add("a", age: 1); add("b", age: 2); add("a", age: 3); add("c", age: 2); add("a", age: 1) }
        XCTAssertEqual(db.objects(Employee.self).distinct(by: ["name"]).map(\.age), [1, 2, 2])
        XCTAssertEqual(db.objects(Employee.self).distinct(by: ["name", "age"]).count, 4)
        XCTAssertEqual(db.objects(Employee.self).distinct(by: ["name"]).sorted(byKeyPath: "name", ascending: false).map(\.name),
                       ["c", "b", "a"])
    }

    // MARK: Aggregates and accessors

    func testAggregatesSkipNils() throws {
        try db.write { add("a", age: 10, bonus: 5); add("b", age: 20); add("c", age: 30, bonus: -3) }
        let all = db.objects(Employee.self)
        XCTAssertEqual(all.sum(ofProperty: "bonus") as Int, 2)
        XCTAssertEqual(all.min(ofProperty: "bonus") as Int?, -3)
        XCTAssertEqual(all.max(ofProperty: "bonus") as Int?, 5)
        XCTAssertEqual(all.average(ofProperty: "bonus"), 1)
        XCTAssertEqual(all.average(ofProperty: "age"), 20)
        XCTAssertEqual(all.sum(ofProperty: "salary") as Double, 3000)
    }

    func testAggregatesOfNothing() throws {
        try db.write { add("a", age: 10) }
        let none = try db.objects(Employee.self).filter("age > 100")
        XCTAssertEqual(none.sum(ofProperty: "age") as Int, 0)
        XCTAssertNil(none.min(ofProperty: "age") as Int?)
        XCTAssertNil(none.max(ofProperty: "salary") as Double?)
        XCTAssertNil(none.average(ofProperty: "age"))
        XCTAssertNil(db.objects(Employee.self).max(ofProperty: "bonus") as Int?)
    }

    func testMinAndMaxOfDatesAndThroughLinks() throws {
        let early = Date(timeIntervalSince1970: 1_000), late = Date(timeIntervalSince1970: 5_000)
        try db.write {
            let team = db.create(Team.self, value: ["code": "T", "title": "T", "budget": 70])
            db.create(Employee.self, value: ["name": "a", "started": late, "team": team, "badge": UUID()])
            db.create(Employee.self, value: ["name": "b", "started": early, "badge": UUID()])
        }
        XCTAssertEqual(db.objects(Employee.self).min(ofProperty: "started"), early)
        XCTAssertEqual(db.objects(Employee.self).max(ofProperty: "started"), late)
        XCTAssertEqual(db.objects(Employee.self).sum(ofProperty: "team.budget") as Int, 70)
    }

    func testFirstLastSubscriptAndIsEmpty() throws {
        try db.write { add("a", age: 1); add("b", age: 2); add("c", age: 3) }
        let results = try db.objects(Employee.self).filter("age >= 2")
        XCTAssertEqual(results.first?.name, "b")
        XCTAssertEqual(results.last?.name, "c")
        XCTAssertEqual(results[1].name, "c")
        XCTAssertFalse(results.isEmpty)
        XCTAssertTrue(try results.filter("age > 3").isEmpty)
        XCTAssertNil(try results.filter("age > 3").first)
    }

    func testChainedFiltersAllHold() throws {
        try db.write { add("ana", age: 30); add("anton", age: 50); add("bo", age: 30) }
        let results = try db.objects(Employee.self).filter("age == 30").filter("name BEGINSWITH %@", "an")
        XCTAssertEqual(results.map(\.name), ["ana"])
    }

    // MARK: Planner

    func testExplainShowsTheIndexItUses() throws {
        let indexed = db.objects(IndexedEmployee.self)
        XCTAssertEqual(try indexed.filter("name == 'a'").explain, "index IndexedEmployee.name == \"a\"")
        XCTAssertEqual(try indexed.filter("age IN {1, 2}").explain, "index IndexedEmployee.age IN {1, 2}")
        XCTAssertEqual(try indexed.filter("name BEGINSWITH 'x'").explain, "index IndexedEmployee.name BEGINSWITH \"x\"")
        XCTAssertEqual(try indexed.filter("age BETWEEN {20, 30}").explain, "index IndexedEmployee.age BETWEEN {20, 30}")
    }

    func testExplainPrefersTheMostSelectiveIndex() throws {
        let results = try db.objects(IndexedEmployee.self).filter("age > 20 AND name == 'a' AND salary > 3")
        XCTAssertEqual(results.explain,
                       "index IndexedEmployee.name == \"a\", then per object (age > 20 AND salary > 3)")
        let ranged = try db.objects(IndexedEmployee.self).filter("age > 20 AND age BETWEEN {1, 30} AND name BEGINSWITH 'n'")
        XCTAssertTrue(ranged.explain.hasPrefix("index IndexedEmployee.name BEGINSWITH \"n\""), ranged.explain)
    }

    func testUnselectiveIndexGivesWayToAColumnScan() throws {
        try db.write {
            for index in 0..<40 {
                db.create(IndexedEmployee.self, value: ["name": "n\(index)", "age": index, "hired": true, "badge": UUID()])
            }
        }
        let broad = try db.objects(IndexedEmployee.self).filter("hired == true AND age > 30")
        XCTAssertEqual(broad.explain, "scan IndexedEmployee (hired == true AND age > 30), "
                       + "not index IndexedEmployee.hired == true: it matches more than 32 of 40 objects")
        XCTAssertEqual(broad.count, 9)
        let narrow = try db.objects(IndexedEmployee.self).filter("name == 'n3' AND age > 1")
        XCTAssertEqual(narrow.explain, "index IndexedEmployee.name == \"n3\", then per object (age > 1)")
        XCTAssertEqual(narrow.map(\.age), [3])
    }

    func testPlannerCountsAWidePrefixBeforeReadingIt() throws {
        // 20,000 objects: a lookup wins up to 312 of them; the planner reads 256 entries, then asks for a count.
        try db.write {
            for index in 0..<19_700 {
                db.create(IndexedEmployee.self, value: ["name": "n\(index)", "age": index % 50, "hired": true, "badge": UUID()])
            }
            for index in 0..<300 {
                db.create(IndexedEmployee.self, value: ["name": "x\(index)", "age": index % 50, "hired": true, "badge": UUID()])
            }
        }
        let all = Array(db.objects(IndexedEmployee.self))
        let cases: [(prefix: String, plan: String)] = [
            ("n", "scan IndexedEmployee (name BEGINSWITH \"n\" AND age > 5), not index IndexedEmployee.name BEGINSWITH "
                + "\"n\": it matches more than 312 of 20000 objects"),
            ("n1", "scan IndexedEmployee (name BEGINSWITH \"n1\" AND age > 5), not index IndexedEmployee.name BEGINSWITH "
                + "\"n1\": it matches more than 312 of 20000 objects"),
            ("x", "index IndexedEmployee.name BEGINSWITH \"x\", then per object (age > 5)"),
            ("n199", "index IndexedEmployee.name BEGINSWITH \"n199\", then per object (age > 5)"),
        ]
        for (prefix, plan) in cases {
            let results = try db.objects(IndexedEmployee.self).filter("name BEGINSWITH %@ AND age > 5", prefix)
            XCTAssertEqual(results.explain, plan)
            let expected = all.filter { $0.name.hasPrefix(prefix) && $0.age > 5 }.map(\.name)
            XCTAssertEqual(results.map(\.name), expected, prefix)
            XCTAssertEqual(results.count, expected.count, prefix)
        }
        // Ranges and IN lists cannot stop reading early: they are counted before they are read.
        for (predicate, index) in [("age > 5", "age > 5"), ("age BETWEEN {1, 3}", "age BETWEEN {1, 3}"),
                                   ("age IN {1, 2}", "age IN {1, 2}")] {
            let results = try db.objects(IndexedEmployee.self).filter("\(predicate) AND salary >= 0")
            XCTAssertTrue(
                results.explain.hasSuffix("not index IndexedEmployee.\(index): it matches more than 312 of 20000 objects"),
                results.explain)
            XCTAssertEqual(results.count, try db.objects(IndexedEmployee.self).filter(predicate).count, predicate)
        }
    }

    func testExplainShowsColumnScansAndPerObjectParts() throws {
        XCTAssertEqual(try db.objects(Employee.self).filter("age > 50 AND hired == true").explain,
                       "scan Employee (age > 50 AND hired == true)")
        XCTAssertEqual(try db.objects(Employee.self).filter("ANY friends.age > 60 AND age > 50").explain,
                       "scan Employee (age > 50 AND (per object: ANY friends.age > 60))")
        // Through one link: a scan of the linked table, then the link column.
        XCTAssertEqual(try db.objects(Employee.self).filter("mentor.age < 40 AND age > 50").explain,
                       "scan Employee (mentor.age < 40 AND age > 50)")
        // A collection's count is read from its stored header, a column condition.
        XCTAssertEqual(try db.objects(Employee.self).filter("friends.@count > 1 AND age > 50").explain,
                       "scan Employee (friends.@count > 1 AND age > 50)")
        XCTAssertEqual(try db.objects(IndexedEmployee.self).filter("name ==[c] 'a' OR age > 3").explain,
                       "scan IndexedEmployee (name ==[c] \"a\" OR age > 3)")
        XCTAssertEqual(db.objects(Employee.self).sorted(byKeyPath: "age", ascending: false).explain,
                       "all Employee, sorted by age DESC")
    }

    func testComparisonsThroughALinkSeeTheLinkedObjectsChangesAndNilLinks() throws {
        var ana: Employee!
        try db.write {
            ana = add("Ana", age: 60)
            add("Bo", age: 20, mentor: ana)
            add("Cy", age: 25)
        }
        let mentoredByElders = try db.objects(Employee.self).filter("mentor.age > 50")
        XCTAssertEqual(mentoredByElders.map(\.name), ["Bo"])
        db.beginWrite()
        ana.age = 40
        XCTAssertEqual(mentoredByElders.count, 0, "the scan of the linked table sees the write's own change")
        db.cancelWrite()
        XCTAssertEqual(mentoredByElders.map(\.name), ["Bo"])
        try db.write { db.delete(ana) }
        XCTAssertEqual(mentoredByElders.count, 0)
        // Bo's link is now nil, a nil value, which `!=` a number matches.
        XCTAssertEqual(try db.objects(Employee.self).filter("mentor.age != 50").map(\.name).sorted(), ["Bo", "Cy"])
    }

    func testCollectionCountsComeFromStoredCollectionsInsideAWriteAndForLongLists() throws {
        try db.write {
            add("Ana", age: 30).scores.append(contentsOf: 0..<3_000)  // long enough to live in a node of its own
            add("Bo", age: 20)
        }
        XCTAssertEqual(try db.objects(Employee.self).filter("scores.@count == 3000").map(\.name), ["Ana"])
        XCTAssertEqual(try db.objects(Employee.self).filter("scores.@count < 3000").map(\.name), ["Bo"])
        db.beginWrite()
        let bo = try XCTUnwrap(db.objects(Employee.self).filter("name == 'Bo'").first)
        bo.scores.append(7)
        // The scan sees the write's own change, as every query in a write does.
        XCTAssertEqual(try db.objects(Employee.self).filter("scores.@count == 1").map(\.name), ["Bo"])
        db.cancelWrite()
        XCTAssertEqual(try db.objects(Employee.self).filter("scores.@count == 0").map(\.name), ["Bo"])
        XCTAssertEqual(try db.objects(Employee.self).filter("scores.@count != 0").map(\.name), ["Ana"])
    }

    // MARK: Typed queries

    func testTypedQueryMatchesTheEquivalentString() throws {
        try db.write {
            let team = db.create(Team.self, value: ["code": "T", "title": "Core", "budget": 3])
            let boss = add("Boss", age: 60, team: team)
            add("Ana", age: 30, bonus: 3, mentor: boss); add("anton", age: 17, team: team); add("Bo", age: 45, hired: false)
        }
        let all = db.objects(Employee.self)
        let pairs: [(Results<Employee>, String)] = [
            (try all.where { $0.age > 18 && $0.name.starts(with: "A") }, "age > 18 AND name BEGINSWITH 'A'"),
            (try all.where { $0.name.starts(with: "a", options: .caseInsensitive) || !($0.hired == true) },
             "name BEGINSWITH[c] 'a' OR NOT hired == true"),
            (try all.where { $0.bonus == nil }, "bonus == nil"),
            (try all.where { $0.mentor.age >= 60 }, "mentor.age >= 60"),
            (try all.where { $0.team.title == "Core" }, "team.title == 'Core'"),
            (try all.where { $0.age.between(20, 50) }, "age BETWEEN {20, 50}"),
            (try all.where { $0.age.in([17, 60]) }, "age IN {17, 60}"),
            (try all.where { $0.name.like("?n*") }, "name LIKE '?n*'"),
        ]
        for (typed, string) in pairs {
            XCTAssertEqual(typed.map(\.name), try all.filter(string).map(\.name), string)
            XCTAssertFalse(typed.isEmpty, string)
        }
        let teams = db.objects(Team.self)
        XCTAssertEqual(try teams.where { $0.members.count == 2 }.count, 1)
        XCTAssertEqual(try teams.where { $0.members.any { $0.age < 18 } }.count, 1)
        XCTAssertEqual(try teams.where { $0.members.all { $0.age < 18 } }.count, 0)
        XCTAssertEqual(try teams.where { $0.members.none { $0.age > 100 } }.count, 1)
        XCTAssertEqual(try teams.where { $0.members.sum("age") == 77 }.count, 1)
        XCTAssertEqual(try teams.where { $0.members.count(where: { $0.name.contains("n") }) == 1 }.count, 1)
    }

    // MARK: Object arguments

    func testObjectArgumentsCompareLinks() throws {
        var boss: Employee!, other: Employee!
        try db.write {
            boss = add("boss", age: 60)
            other = add("other", age: 50)
            add("a", age: 20, mentor: boss); add("b", age: 30, mentor: other); add("c", age: 40)
            db.objects(Employee.self)[4].friends.append(boss)
        }
        let all = db.objects(Employee.self)
        XCTAssertEqual(try all.filter("mentor == %@", boss!).map(\.name), ["a"])
        XCTAssertEqual(try all.filter("mentor != %@", boss!).map(\.name), ["boss", "other", "b", "c"])
        XCTAssertEqual(try all.filter("mentor IN %@", [boss!, other!]).map(\.name), ["a", "b"])
        XCTAssertEqual(try all.filter("%@ IN friends", boss!).map(\.name), ["c"])
        XCTAssertEqual(try all.filter("ANY friends == %@", boss!).map(\.name), ["c"])
        XCTAssertThrowsError(try all.filter("mentor == %@", Employee())) { error in
            XCTAssertTrue("\(error)".contains("must be a stored object"), "\(error)")
        }
        var team: Team!
        try db.write { team = db.create(Team.self, value: ["code": "T", "title": "T", "budget": 1]) }
        XCTAssertThrowsError(try all.filter("mentor == %@", team!)) { error in
            XCTAssertTrue("\(error)".contains("cannot compare Employee with an object of Team"), "\(error)")
        }
        XCTAssertThrowsError(try all.filter("mentor > %@", boss!)) { error in
            XCTAssertTrue("\(error)".contains("'>' does not apply to 'mentor'"), "\(error)")
        }
    }

    // MARK: Lists and linking objects

    func testListQueriesKeepListOrderAndStayLive() throws {
        var owner: Employee!
        try db.write {
            owner = add("owner", age: 40)
            for (name, age) in [("d", 50), ("a", 20), ("c", 35), ("b", 20)] { owner.friends.append(add(name, age: age)) }
        }
        let older = try owner.friends.filter("age > %@", 25)
        XCTAssertEqual(older.map(\.name), ["d", "c"])
        XCTAssertEqual(owner.friends.sorted(by: ["age", "name"]).map(\.name), ["a", "b", "c", "d"])
        XCTAssertEqual(owner.friends.max(ofProperty: "age") as Int?, 50)
        XCTAssertEqual(owner.friends.distinct(by: ["age"]).count, 3)
        XCTAssertTrue(older.explain.hasPrefix("list Employee.friends of"), older.explain)
        try db.write { owner.friends.move(from: 2, to: 0) }
        XCTAssertEqual(older.map(\.name), ["c", "d"])
        try db.write { db.delete(owner.friends[0]) }
        XCTAssertEqual(older.map(\.name), ["d"])
        try db.write { db.delete(owner) }
        XCTAssertTrue(older.isEmpty)
    }

    func testLinkingObjectsQueries() throws {
        var team: Team!
        try db.write {
            team = db.create(Team.self, value: ["code": "T", "title": "Core", "budget": 3])
            add("a", age: 20, team: team); add("b", age: 40, team: team); add("c", age: 60)
        }
        let seniors = try team.members.filter("age >= 30")
        XCTAssertEqual(seniors.map(\.name), ["b"])
        XCTAssertEqual(try team.members.where { $0.age < 30 }.map(\.name), ["a"])
        XCTAssertEqual(team.members.sorted(byKeyPath: "age", ascending: false).map(\.name), ["b", "a"])
        XCTAssertEqual(team.members.average(ofProperty: "age"), 30)
        try db.write { db.objects(Employee.self).last?.team = team }
        XCTAssertEqual(seniors.map(\.name), ["b", "c"])
    }

    func testOptionalArgumentsCountAsTheirValueOrNil() throws {
        let staff = makeStaff()
        _ = try store(staff, as: Employee.self, in: db)
        let all = db.objects(Employee.self)
        let some: String? = try XCTUnwrap(staff.alive.compactMap(\.nickname).first)
        XCTAssertEqual(try all.filter("nickname == %@", some as Any).count, staff.alive.filter { $0.nickname == some }.count)
        let none: String? = nil
        XCTAssertEqual(try all.filter("nickname == %@", none as Any).count, staff.alive.filter { $0.nickname == nil }.count)
    }
}

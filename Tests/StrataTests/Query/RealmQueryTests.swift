import Foundation
import XCTest

@testable import Strata

/// Issue #25 beyond the conformance suite's counts: what Realm refuses (with the offending token's offset),
/// typed queries, linking objects and object arguments through several lists, and unknown sort and distinct key
/// paths surfaced as errors instead of stops.
final class RealmQueryTests: StaffDatabaseTestCase {
    private var staff: PlainStaff!

    override func setUpWithError() throws {
        try super.setUpWithError()
        staff = makeStaff()
        try store(staff, as: Employee.self, in: db)
    }

    private var all: Results<Employee> { db.objects(Employee.self) }

    /// The error `filter` throws, as (offset, message).
    private func failure(_ predicate: String, _ arguments: Any..., file: StaticString = #filePath, line: UInt = #line) -> (Int, String)? {
        do {
            _ = try all.filter(predicate, arguments: arguments)
            XCTFail("`\(predicate)` was accepted", file: file, line: line)
        } catch StrataError.invalidPredicate(let text, let offset, let message) {
            XCTAssertEqual(text, predicate, file: file, line: line)
            return (offset, message)
        } catch {
            XCTFail("`\(predicate)` threw \(error)", file: file, line: line)
        }
        return nil
    }

    private func badges(_ results: Results<Employee>) -> Set<UUID> { Set(results.map(\.badge)) }

    private func badges(where keep: (PlainEmployee) -> Bool) -> Set<UUID> { Set(staff.alive.filter(keep).map(\.badge)) }

    // MARK: - Item 6: what Realm refuses

    func testConstantOnlyComparisonsAreRefusedAtTheirOperator() {
        for (predicate, offset) in [("5 = 5", 2), ("nil = nil", 4), ("'a' = 'a'", 4), ("age > 3 AND 1 < 2", 14),
                                    ("NULL == (null)", 5), ("{1, 2} IN {1}", 7)] {
            let error = failure(predicate)
            XCTAssertEqual(error?.0, offset, predicate)
            XCTAssertTrue(error?.1.contains("compares two constants") ?? false, "\(predicate): \(String(describing: error))")
        }
        let arguments = failure("%@ == %@", 1, 1)
        XCTAssertEqual(arguments?.0, 3)
    }

    func testNilComparedWithARequiredPropertyIsRefused() {
        for (predicate, offset) in [("age == nil", 4), ("hired != NULL", 6), ("mentor.age == nil", 11),
                                    ("ANY skills == nil", 11), ("nil == name", 4), ("salary = (nil)", 7)] {
            let error = failure(predicate)
            XCTAssertEqual(error?.0, offset, predicate)
            XCTAssertTrue(error?.1.contains("is not optional and is never nil") ?? false, "\(predicate): \(String(describing: error))")
        }
        let none: Int? = nil
        XCTAssertEqual(failure("age == %@", none as Any)?.1, "'age' is not optional and is never nil; compare it with a value of its type")
        XCTAssertThrowsError(try all.where { $0.age == nil })
        // Optional properties, links and linking objects can be nil.
        XCTAssertNoThrow(try all.filter("bonus == nil AND mentor == nil AND mentor.bonus != nil AND ANY friends == nil"))
    }

    // MARK: - Item 2: %K components

    func testKeyPathArgumentsNameComponents() throws {
        XCTAssertEqual(badges(try all.filter("%K.%K == %@", "team", "title", "Core")), badges { staff.team(of: $0)?.title == "Core" })
        XCTAssertEqual(badges(try all.filter("mentor.%K > %@", "age", 40)), badges { staff.mentor(of: $0).map { $0.age > 40 } ?? false })
        // One parse serves other key paths.
        XCTAssertEqual(badges(try all.filter("mentor.%K > %@", "bonus", 40)),
                       badges { staff.mentor(of: $0)?.bonus.map { $0 > 40 } ?? false })
        XCTAssertEqual(try all.filter("%K.%K == 'x'", "team", "title").explain, "scan Employee (team.title == \"x\")")
    }

    func testKeyPathArgumentErrorsPointAtThePlaceholder() {
        XCTAssertEqual(failure("team.%K == 'x'", "colour")?.1, "unknown property 'colour' of Team")
        let missing = failure("%K.%K == 'x'", "team")
        XCTAssertEqual(missing?.0, 3)
        XCTAssertEqual(missing?.1, "the predicate uses more arguments than the 1 given")
        let wrongType = failure("team.%K == 'x'", 3)
        XCTAssertEqual(wrongType?.0, 5)
        XCTAssertEqual(wrongType?.1, "%K needs a key path string argument")
        let aggregate = failure("%K.@count > 1", "friends")
        XCTAssertEqual(aggregate?.0, 3)
        XCTAssertEqual(aggregate?.1, "a %K placeholder cannot name the list of @count; write the list's name")
        XCTAssertEqual(failure("team.%@ == 'x'", "title")?.0, 5)
    }

    // MARK: - Item 3: string ordering, typed

    func testTypedStringOrderingMatchesThePredicateString() throws {
        XCTAssertEqual(badges(try all.where { $0.name < "b" }), badges(try all.filter("name < 'b'")))
        XCTAssertEqual(badges(try all.where { $0.name >= "b" && $0.name <= "n" }),
                       badges { $0.name.unicodeScalars.lexicographicallyPrecedes("b".unicodeScalars) == false
                           && "n".unicodeScalars.lexicographicallyPrecedes($0.name.unicodeScalars) == false })
        XCTAssertEqual(badges(try all.where { $0.name < $0.nickname }), badges(try all.filter("name < nickname")))
        XCTAssertEqual(badges(try all.where { $0.mentor.name > "m" }),
                       badges { staff.mentor(of: $0).map { "m".unicodeScalars.lexicographicallyPrecedes($0.name.unicodeScalars) } ?? false })
        XCTAssertFalse(badges(try all.where { $0.name < "b" }).isEmpty)
    }

    func testStringOrderingIsByUnicodeScalars() throws {
        // "Z" (U+005A) < "a" (U+0061) < "é" (U+00E9) < "日" (U+65E5): scalar order, not a locale's.
        XCTAssertEqual(badges(try all.filter("name < 'a'")), badges { $0.name.unicodeScalars.first.map { $0.value < 0x61 } ?? true })
        XCTAssertEqual(badges(try all.filter("name > 'zz'")), badges { "zz".unicodeScalars.lexicographicallyPrecedes($0.name.unicodeScalars) })
        XCTAssertTrue(try all.filter("name > 'zz'").contains { $0.name == "日本語" })
        XCTAssertEqual(badges(try all.filter("name <[c] 'B'")), badges(try all.filter("name <[c] 'b'")))
    }

    // MARK: - Item 4: several to-many steps

    func testLinkingObjectsThenAListAndObjectArguments() throws {
        let teams = try db.objects(Team.self).filter("ANY members.friends.age > 60").map(\.code)
        let expected = staff.teams.indices.filter {
            !staff.teams[$0].isDeleted && staff.members(of: $0).contains { staff.friends(of: $0).contains { $0.age > 60 } }
        }.map { staff.teams[$0].code }
        XCTAssertEqual(Set(teams), Set(expected))
        XCTAssertFalse(expected.isEmpty)

        func reaches(_ employee: PlainEmployee, _ badge: UUID) -> Bool {
            staff.friends(of: employee).contains { staff.friends(of: $0).contains { $0.badge == badge } }
        }
        let plainTarget = try XCTUnwrap(staff.alive.first { target in staff.alive.contains { reaches($0, target.badge) } })
        let target = try XCTUnwrap(try all.filter("badge == %@", plainTarget.badge).first)
        let friendsOfFriends = try all.filter("ANY friends.friends == %@", target)
        XCTAssertFalse(friendsOfFriends.isEmpty)
        XCTAssertEqual(badges(friendsOfFriends), badges { reaches($0, plainTarget.badge) })
        XCTAssertEqual(badges(try all.where { $0.friends.friends.age > 60 }), badges(try all.filter("ANY friends.friends.age > 60")))
    }

    func testAggregatesAndSubqueriesNeedOneList() {
        XCTAssertEqual(failure("friends.friends.@count > 1")?.1,
                       "'friends.friends' goes through several lists; @count needs one list or linking objects "
                       + "(ANY, ALL and NONE compare the values of several)")
        XCTAssertTrue(failure("SUBQUERY(friends.friends, $f, $f.age > 3).@count > 0")?.1.contains("goes through several lists") ?? false)
        XCTAssertEqual(failure("ANY friends.friends.name == friends.name")?.1, "only one side of a comparison can be a list")
    }

    // MARK: - Items 5, 7, 8

    func testDataTextOperatorsAndOrderingAreValid() throws {
        XCTAssertEqual(badges(try all.filter("photo LIKE[c] %@", Data("\u{1}*".utf8))), badges { $0.photo?.first == 1 })
        XCTAssertEqual(try all.filter("photo BEGINSWITH %@", Data()).count, 0)
        XCTAssertEqual(badges(try all.filter("photo > %@", Data([2]))), badges { $0.photo.map { [2].lexicographicallyPrecedes($0) } ?? false })
        XCTAssertEqual(failure("photo BETWEEN {1, 2}")?.1, "'BETWEEN' does not apply to 'photo', which is data")
    }

    func testBoolAcceptsZeroAndOneOnly() throws {
        XCTAssertEqual(badges(try all.filter("hired == 1")), badges { $0.hired })
        XCTAssertEqual(badges(try all.filter("hired == %@", 0)), badges { !$0.hired })
        XCTAssertEqual(failure("hired == 2")?.1, "cannot compare bool with the int 2")
    }

    func testParenthesisedConstantsNeedTheirClosingParenthesis() {
        let error = failure("bonus == (nil")
        XCTAssertEqual(error?.0, 13)
        XCTAssertEqual(error?.1, "expected ')' to close the parenthesis, found 'end of input'")
    }

    func testTypedFloatComparisonsRoundTheOperandToFloat() throws {
        let tenth = badges { $0.rating == Float(1.1) }
        XCTAssertFalse(tenth.isEmpty)
        XCTAssertEqual(badges(try all.where { $0.rating == 1.1 }), tenth)
        XCTAssertEqual(badges(try all.where { $0.rating == Float(1.1) }), tenth)
        XCTAssertEqual(badges(try all.where { $0.rating.in([1.1, 7.25]) }), tenth)
        XCTAssertEqual(badges(try all.filter("rating == %@", 1.1)), tenth)
        // A double property keeps double precision.
        let salary = try XCTUnwrap(staff.alive.first { Double(Float($0.salary)) != $0.salary }?.salary)
        XCTAssertEqual(badges(try all.filter("salary == %@", salary)), badges { $0.salary == salary })
        XCTAssertEqual(try all.filter("salary == %@", Double(Float(salary))).count, 0)
    }

    // MARK: - Item 9: unknown sort and distinct key paths

    func testUnknownSortKeyPathIsAnErrorNotAStop() throws {
        let sorted = all.sorted(byKeyPath: "nmae")
        let error = try XCTUnwrap(sorted.keyPathError)
        guard case .invalidArgument(let message) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(message, "cannot sort by 'nmae' of Employee: unknown property 'nmae' of Employee (did you mean 'name'?)")
        // The non-throwing reads see no objects; the throwing ones throw the error.
        XCTAssertEqual(sorted.count, 0)
        XCTAssertTrue(sorted.isEmpty)
        XCTAssertNil(sorted.first)
        XCTAssertEqual(Array(sorted).count, 0)
        XCTAssertNil(sorted.max(ofProperty: "age") as Int?)
        XCTAssertEqual(sorted.sum(ofProperty: "age") as Int, 0)
        XCTAssertThrowsError(try sorted.fetch()) { XCTAssertEqual($0 as? StrataError, error) }
        XCTAssertThrowsError(try sorted.fetchCount()) { XCTAssertEqual($0 as? StrataError, error) }
        XCTAssertThrowsError(try sorted.fetchFirst()) { XCTAssertEqual($0 as? StrataError, error) }
        XCTAssertThrowsError(try sorted.fetchSum(ofProperty: "age") as Int) { XCTAssertEqual($0 as? StrataError, error) }
        XCTAssertTrue(sorted.explain.hasPrefix("cannot run the query: "), sorted.explain)
        // Results made from them keep the error; a valid key path sorts normally.
        XCTAssertEqual(try sorted.filter("age > 3").sorted(byKeyPath: "age").keyPathError, error)
        XCTAssertNil(all.sorted(byKeyPath: "mentor.age").keyPathError)
    }

    func testUnknownKeyPathsOfSortedByAndDistinctAreErrors() throws {
        let throughList = all.sorted(by: ["age", SortDescriptor(keyPath: "friends.age")])
        guard case .invalidArgument(let message)? = throughList.keyPathError else { return XCTFail("no error") }
        XCTAssertEqual(message, "cannot sort by 'friends.age' of Employee: it goes through a list; sort by a property or a path "
                       + "through to-one links")
        let distinct = all.distinct(by: ["name", "team.colour"])
        guard case .invalidArgument(let distinctMessage)? = distinct.keyPathError else { return XCTFail("no error") }
        XCTAssertEqual(distinctMessage, "cannot distinct by 'team.colour' of Employee: unknown property 'colour' of Team")
        XCTAssertEqual(distinct.count, 0)
        XCTAssertThrowsError(try distinct.fetch())
        let list = try XCTUnwrap(all.first { !$0.friends.isEmpty }).friends.sorted(byKeyPath: "nope")
        XCTAssertNotNil(list.keyPathError)
        XCTAssertThrowsError(try list.fetchCount())
    }

    func testObservingAnUnknownSortKeyPathDeliversTheError() throws {
        let queue = DispatchQueue(label: "sort error observer")
        let delivered = expectation(description: "error")
        let token = all.sorted(byKeyPath: "nope").observe(on: queue) { change in
            guard case .error(let error) = change else { return XCTFail("\(change)") }
            guard case StrataError.invalidArgument(let message)? = error as? StrataError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("cannot sort by 'nope' of Employee"), message)
            delivered.fulfill()
        }
        wait(for: [delivered], timeout: 20)
        withExtendedLifetime(token) {}
    }

    // MARK: - Item 9: nil links sort last when ascending

    func testNilLinksSortLastAscendingAndFirstDescending() throws {
        for ascending in [true, false] {
            let sorted = all.sorted(byKeyPath: "mentor.age", ascending: ascending)
            let ages: [Int?] = sorted.map { $0.mentor?.age }
            let present = ages.compactMap { $0 }
            let nils = ages.count - present.count
            XCTAssertGreaterThan(nils, 0)
            XCTAssertGreaterThan(present.count, 0)
            if ascending {
                XCTAssertEqual(Array(ages.prefix(present.count)), present.sorted().map(Optional.some))
                XCTAssertTrue(ages.suffix(nils).allSatisfy { $0 == nil })
            } else {
                XCTAssertTrue(ages.prefix(nils).allSatisfy { $0 == nil })
                XCTAssertEqual(Array(ages.suffix(present.count)), present.sorted(by: >).map(Optional.some))
            }
        }
        // A nil value of the property itself still sorts first when ascending.
        let bonuses = all.sorted(byKeyPath: "bonus").map(\.bonus)
        let firstValue = try XCTUnwrap(bonuses.firstIndex { $0 != nil })
        XCTAssertTrue(bonuses[firstValue...].allSatisfy { $0 != nil })
        XCTAssertGreaterThan(firstValue, 0)
        // A sort by the link itself: nil links last, the others by key.
        let teams = all.sorted(byKeyPath: "team").map { $0.team?.code }
        let firstNil = try XCTUnwrap(teams.firstIndex { $0 == nil })
        XCTAssertTrue(teams[firstNil...].allSatisfy { $0 == nil })
    }

    func testObservedSortThroughALinkKeepsNilLinksLast() throws {
        let queue = DispatchQueue(label: "sorted by link observer")
        let initial = expectation(description: "initial")
        let update = expectation(description: "update")
        let sorted = all.sorted(byKeyPath: "team")
        let token = sorted.observe(on: queue) { change in
            switch change {
            case .initial(let results):
                XCTAssertNil(results.last?.team)
                initial.fulfill()
            case .update(let results, _, _, _):
                XCTAssertNil(results.last?.team)
                XCTAssertNotNil(results.first?.team)
                update.fulfill()
            case .error(let error): XCTFail("\(error)")
            }
        }
        wait(for: [initial], timeout: 20)
        try db.write {
            db.create(Employee.self, value: [
                "name": "late", "age": 30, "hired": true, "salary": 1.0, "started": Date(), "badge": UUID(),
            ])
        }
        wait(for: [update], timeout: 20)
        withExtendedLifetime(token) {}
    }
}

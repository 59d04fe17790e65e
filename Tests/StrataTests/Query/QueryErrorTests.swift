import Foundation
import XCTest

@testable import Strata

/// Semantic errors found after parsing: each names the token and its offset, and says what to write instead.
final class QueryErrorTests: StaffDatabaseTestCase {

    /// The error `filter` throws, as (offset, message).
    private func failure(_ predicate: String, _ arguments: Any..., file: StaticString = #filePath, line: UInt = #line) -> (Int, String)? {
        do {
            _ = try db.objects(Employee.self).filter(predicate, arguments: arguments)
            XCTFail("`\(predicate)` was accepted", file: file, line: line)
        } catch StrataError.invalidPredicate(let text, let offset, let message) {
            XCTAssertEqual(text, predicate, file: file, line: line)
            return (offset, message)
        } catch {
            XCTFail("`\(predicate)` threw \(error)", file: file, line: line)
        }
        return nil
    }

    func testUnknownPropertyIsNamedWithASuggestion() {
        let error = failure("age > 3 AND nmae == 'a'")
        XCTAssertEqual(error?.0, 12)
        XCTAssertEqual(error?.1, "unknown property 'nmae' of Employee (did you mean 'name'?)")
    }

    func testUnknownPropertyBehindALinkNamesTheLinkedModel() {
        XCTAssertEqual(failure("team.colour == 'red'")?.1, "unknown property 'colour' of Team")
    }

    func testPropertyOfAValueIsRejected() {
        XCTAssertEqual(failure("age.years > 3")?.1, "'age' is int and has no property 'years'")
    }

    func testStringArgumentComparedWithIntNamesBothTypes() {
        let error = failure("age == %@", "thirty")
        XCTAssertEqual(error?.0, 4)
        XCTAssertEqual(error?.1, "cannot compare int with the string \"thirty\"")
    }

    func testIntComparedWithStringPropertyIsRejected() {
        XCTAssertEqual(failure("name BEGINSWITH 3")?.1, "cannot compare string with the int 3")
    }

    func testOrderingIsNotValidForBooleans() {
        let error = failure("hired > true")
        XCTAssertEqual(error?.0, 6)
        XCTAssertEqual(error?.1, "'>' does not apply to 'hired', which is bool")
    }

    func testStringOperatorOnANumberIsRejected() {
        XCTAssertEqual(failure("age CONTAINS 3")?.1, "'CONTAINS' does not apply to 'age', which is int")
    }

    func testCaseOptionOnANumberIsRejected() {
        XCTAssertEqual(failure("age ==[c] 3")?.1, "[c] and [d] apply to strings and data, but 'age' is int")
        XCTAssertEqual(failure("age >[c] 3")?.1, "[c] and [d] apply to strings and data, but 'age' is int")
    }

    func testQuantifierNeedsAList() {
        XCTAssertEqual(failure("ANY age > 3")?.1, "ANY needs a list, set, map or linking objects on the left, but 'age' holds one value")
    }

    func testCountNeedsAList() {
        XCTAssertEqual(failure("name.@count > 3")?.1, "@count needs a list, set, map or linking objects, but 'name' holds one value")
    }

    func testSumNeedsNumbers() {
        XCTAssertEqual(failure("skills.@sum > 3")?.1, "@sum needs numbers, but 'skills' is string")
    }

    func testSumOverObjectsNeedsAProperty() {
        XCTAssertEqual(failure("friends.@sum > 3")?.1, "@sum needs numbers, but 'friends' is Employee")
    }

    func testInNeedsAList() {
        XCTAssertEqual(failure("age IN 3")?.1, "IN needs a list such as {1, 2} or a list property on its right")
    }

    func testListOnlyFollowsInOrBetween() {
        XCTAssertEqual(failure("age == {1, 2}")?.1, "a list {…} can only follow IN or BETWEEN, not '=='")
    }

    func testTwoListsCannotBeCompared() {
        XCTAssertEqual(failure("ANY skills == friends.name")?.1, "only one side of a comparison can be a list")
    }

    func testUnknownVariableIsRejected() {
        XCTAssertEqual(failure("SUBQUERY(friends, $f, $g.age > 3).@count > 0")?.1,
                       "unknown variable $g; only a SUBQUERY introduces variables")
    }

    func testSubqueryOverAValueIsRejected() {
        XCTAssertEqual(failure("SUBQUERY(name, $n, $n == 'a').@count > 0")?.1,
                       "SUBQUERY needs a list, set, map or linking objects, but 'name' holds one value")
    }

    func testMalformedUUIDStringIsRejected() {
        XCTAssertEqual(failure("badge == 'not-a-uuid'")?.1, "\"not-a-uuid\" is not a UUID")
    }

    func testSyntaxErrorPointsAtTheToken() {
        let error = failure("age > 3 AND")
        XCTAssertEqual(error?.0, 11)
        XCTAssertEqual(error?.1, "the predicate ends where a comparison was expected")
    }

    func testErrorDescriptionPointsAtTheOffset() {
        do {
            _ = try db.objects(Employee.self).filter("age >= 3 AND nmae == 'a'")
            XCTFail("accepted")
        } catch {
            XCTAssertEqual("\(error)", "invalid predicate at offset 13: unknown property 'nmae' of Employee (did you mean 'name'?)\n"
                           + "  age >= 3 AND nmae == 'a'\n               ^")
        }
    }

    func testTypedQueryReportsUnknownPropertyBehindALink() {
        // `$0.salery` does not compile (the generated members of Query<Employee> are the model's properties);
        // past a link, key paths are checked when the query is built.
        XCTAssertThrowsError(try db.objects(Employee.self).where { $0.mentor.salery > 3 }) { error in
            guard case StrataError.invalidPredicate(_, _, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("unknown property 'salery' of Employee"), message)
        }
    }

    func testUnmanagedListCannotBeFiltered() {
        let employee = Employee()
        XCTAssertThrowsError(try employee.friends.filter("age > 3")) { error in
            guard case StrataError.invalidArgument(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("needs a managed collection"), message)
        }
    }
}

import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// What the conformance suite reads from either employee model.
protocol StaffMember: Object {
    var name: String { get }
    var age: Int { get }
    var badge: UUID { get }
}

extension Employee: StaffMember {}
extension IndexedEmployee: StaffMember {}

/// A test case over a fresh `Staff` database in a temporary directory.
class StaffTestCase: XCTestCase {
    var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// A new database named `name` in the test's directory.
    func openStaff(_ name: String = "staff") throws -> Database {
        return try Database(configuration: Configuration(schema: Staff.self)
            .scratch(at: directory.url.appendingPathComponent("\(name).strata")))
    }

    /// The plain data set with some employees and one team deleted (links through them then read nil).
    func makeStaff(seed: UInt64 = 7, count: Int = 90) -> PlainStaff {
        var staff = PlainStaff.make(seed: seed, count: count)
        for index in stride(from: 4, to: staff.employees.count, by: 9) { staff.employees[index].isDeleted = true }
        staff.teams[2].isDeleted = true
        return staff
    }

    /// Stores `staff` as objects of `type` (creating everything, then deleting what the plain set marks deleted).
    @discardableResult
    func store<T: StaffMember>(_ staff: PlainStaff, as type: T.Type, in db: Database) throws -> [T] {
        var created: [T] = []
        var teams: [Team] = []
        try db.write {
            teams = staff.teams.map { db.create(Team.self, value: ["code": $0.code, "title": $0.title, "budget": $0.budget]) }
            for employee in staff.employees {
                var fields: [String: Any] = [
                    "name": employee.name, "age": employee.age, "hired": employee.hired, "salary": employee.salary,
                    "started": employee.started, "badge": employee.badge, "skills": employee.skills,
                    "scores": employee.scores, "friends": employee.friends.map { created[$0] },
                    "tags": employee.tags, "levels": employee.levels, "pals": employee.pals.map { created[$0] },
                ]
                if let rating = employee.rating { fields["rating"] = rating }
                if let nickname = employee.nickname { fields["nickname"] = nickname }
                if let bonus = employee.bonus { fields["bonus"] = bonus }
                if let photo = employee.photo { fields["photo"] = photo }
                if let team = employee.team { fields["team"] = teams[team] }
                if let mentor = employee.mentor { fields["mentor"] = created[mentor] }
                fields["balance"] = employee.balance
                if let code = employee.code { fields["code"] = code }
                if let extra = anyValue(employee.extra, teams: teams) { fields["extra"] = extra }
                fields["charms"] = employee.charms.map { anyValue($0, teams: teams) ?? AnyValue.none }
                fields["extras"] = employee.extras.mapValues { anyValue($0, teams: teams) ?? AnyValue.none }
                created.append(db.create(T.self, value: fields))
            }
        }
        try db.write {
            for (index, employee) in staff.employees.enumerated() where employee.isDeleted { db.delete(created[index]) }
            for (index, team) in staff.teams.enumerated() where team.isDeleted { db.delete(teams[index]) }
        }
        return created
    }
}

extension StaffTestCase {
    /// What the iteration tests write in the middle of a loop over `age >= 50`: delete the matches whose name ends in
    /// 4, make those ending in 2 stop matching (age 1), and add one new match named `late`.
    func changeOlderEmployeesMidLoop(in db: Database) throws {
        try db.write {
            for doomed in try db.objects(Employee.self).filter("name ENDSWITH '4' AND age >= 50") { db.delete(doomed) }
            for young in try db.objects(Employee.self).filter("name ENDSWITH '2' AND age >= 50") { young.age = 1 }
            db.create(Employee.self, value: ["name": "late", "age": 70, "hired": true, "salary": 1.0, "badge": UUID()])
        }
    }
}

/// The stored form of a plain mixed value (`nil` for none), its team link to the stored `teams`.
private func anyValue(_ value: PlainMixed, teams: [Team]) -> AnyValue? {
    switch value {
    case .none: return nil
    case .int(let value): return .int(value)
    case .double(let value): return .double(value)
    case .decimal(let value): return .decimal(value)
    case .string(let value): return .string(value)
    case .bool(let value): return .bool(value)
    case .team(let team): return .object(teams[team])
    }
}

/// A `StaffTestCase` whose tests share one open `Staff` database, `db`, opened before each test.
class StaffDatabaseTestCase: StaffTestCase {
    var db: Database!

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }
}

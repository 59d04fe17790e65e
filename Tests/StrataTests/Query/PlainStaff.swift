import Foundation
import Strata
import StrataTestSupport

/// The query tests' data as plain Swift values: what the brute-force oracle evaluates predicates on, built
/// without the store, the parser or the evaluator.
struct PlainEmployee {
    var name: String
    var age: Int
    var hired: Bool
    var salary: Double
    var rating: Float?
    var nickname: String?
    var bonus: Int?
    var started: Date
    var badge: UUID
    var photo: Data?
    var team: Int?
    var mentor: Int?
    var skills: [String]
    var scores: [Int]
    var friends: [Int]
    /// A set: distinct strings.
    var tags: [String] = []
    /// A map of ints.
    var levels: [String: Int] = [:]
    /// A set of employees: distinct indices.
    var pals: [Int] = []
    var balance: Decimal = 0
    var code: ObjectId?
    var extra: PlainMixed = .none
    /// A `set<any>`: distinct values (of kind and value: `1` and `1.0` are two).
    var charms: [PlainMixed] = []
    /// A `map<any?>`.
    var extras: [String: PlainMixed] = [:]
    var isDeleted = false
}

/// A mixed (`any`) value of the plain data set.
enum PlainMixed: Equatable {
    case none
    case int(Int)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case bool(Bool)
    /// A link to the team at this index.
    case team(Int)

    /// The value's number as an exact decimal (a double through its shortest text, as queries compare them).
    var number: Decimal? {
        switch self {
        case .int(let value): return Decimal(value)
        case .double(let value): return Decimal(string: "\(value)")
        case .decimal(let value): return value
        default: return nil
        }
    }
}

/// A team of the plain data set.
struct PlainTeam {
    var code: String
    var title: String
    var budget: Int
    var isDeleted = false
}

/// Every employee and team, with deletions applied as the store applies them (links to a deleted object read
/// nil, lists drop it).
struct PlainStaff {
    var employees: [PlainEmployee]
    var teams: [PlainTeam]

    var alive: [PlainEmployee] { employees.filter { !$0.isDeleted } }

    func mentor(of employee: PlainEmployee) -> PlainEmployee? {
        guard let index = employee.mentor, !employees[index].isDeleted else { return nil }
        return employees[index]
    }

    func friends(of employee: PlainEmployee) -> [PlainEmployee] {
        employee.friends.map { employees[$0] }.filter { !$0.isDeleted }
    }

    /// The living employees of a set of employees.
    func pals(of employee: PlainEmployee) -> [PlainEmployee] {
        employee.pals.map { employees[$0] }.filter { !$0.isDeleted }
    }

    /// The `set<any>` as the store holds it: a link to a deleted team is gone.
    func charms(of employee: PlainEmployee) -> [PlainMixed] {
        employee.charms.filter { if case .team(let index) = $0 { !teams[index].isDeleted } else { true } }
    }

    /// The `map<any?>` as the store holds it: a link to a deleted team is nil, its key kept.
    func extras(of employee: PlainEmployee) -> [String: PlainMixed] {
        employee.extras.mapValues { value -> PlainMixed in
            if case .team(let index) = value, teams[index].isDeleted { return .none }
            return value
        }
    }

    func team(of employee: PlainEmployee) -> PlainTeam? {
        guard let index = employee.team, !teams[index].isDeleted else { return nil }
        return teams[index]
    }

    /// The living employees of team `index` (its linking objects).
    func members(of index: Int) -> [PlainEmployee] {
        alive.filter { $0.team == index }
    }

    static let names = [
        "Ana", "ana", "ANA", "Bob", "bobby", "Émile", "emile", "EMILE", "Zoë", "zoe", "straße", "STRASSE",
        "Σίσυφος", "σίσυφος", "日本語", "naïve", "Naive", "name-1", "name-10", "name-2", "", "a*b", "x?y", "Åsa",
    ]
    static let skills = ["swift", "Swift", "rust", "Ωmega", "café", "CAFE", ""]
    static let levelKeys = ["math", "art", "Art", "mé", ""]

    static let mixedKeys = ["a", "b", "c", "A"]

    /// A mixed value of a random kind: small numbers of three kinds that can be equal, short strings, a bool,
    /// nil or a link to one of `teams` teams.
    private static func drawMixed(_ random: inout SeededGenerator, teams: Int) -> PlainMixed {
        switch random.below(9) {
        case 0: return .none
        case 1: return .int(random.below(5) - 2)
        case 2: return .double(Double(random.below(5) - 2) / 2)
        case 3: return .decimal(Decimal(random.below(5) - 2) / 2)
        case 4, 5: return .string(["gold", "Gold", "silver", ""][random.below(4)])
        case 6: return .bool(random.below(2) == 0)
        default: return .team(random.below(teams))
        }
    }

    /// The rating drawn as `step`: `step / 2`, but `1.1` for 3.
    private static func rating(_ step: Int) -> Float { step == 3 ? 1.1 : Float(step) / 2 }

    /// A data set drawn from a fixed seed: nils, empty lists, duplicates and Unicode throughout.
    static func make(seed: UInt64, count: Int) -> PlainStaff {
        var random = SeededGenerator(seed: seed)
        let teams = (0..<5).map { PlainTeam(code: "T\($0)", title: ["Core", "core", "Édition", "Ops", "Σ"][$0], budget: $0 * 250) }
        var employees: [PlainEmployee] = []
        // The sets and maps draw from their own generator, so the other values stay those of earlier data sets.
        var collections = SeededGenerator(seed: seed &+ 1_000)
        for index in 0..<count {
            let employee = PlainEmployee(
                name: names[random.below(names.count)],
                age: 18 + random.below(53),
                hired: random.below(3) != 0,
                salary: Double(100_000 + random.below(800_000)) / 100,
                // Halves, except 1.1 for 1.5: a float that no double literal equals once widened (issue #25).
                rating: random.below(4) == 0 ? nil : rating(random.below(11)),
                nickname: random.below(5) < 2 ? nil : names[random.below(names.count)],
                bonus: random.below(3) == 0 ? nil : random.below(1100) - 100,
                started: Date(timeIntervalSince1970: Double(1_500_000_000 + random.below(200_000_000))),
                badge: UUID(),
                photo: random.below(3) == 0 ? nil : Data((0..<random.below(5)).map { _ in UInt8(random.below(4)) }),
                team: random.below(6) == 0 ? nil : random.below(teams.count),
                mentor: index == 0 || random.below(3) == 0 ? nil : random.below(index),
                skills: (0..<random.below(4)).map { _ in skills[random.below(skills.count)] },
                scores: (0..<random.below(5)).map { _ in random.below(10) },
                friends: index == 0 ? [] : (0..<random.below(4)).map { _ in random.below(index) })
            employees.append(employee)
            var tags: [String] = []
            for _ in 0..<collections.below(4) {
                let tag = skills[collections.below(skills.count)]
                if !tags.contains(tag) { tags.append(tag) }
            }
            employees[index].tags = tags
            for _ in 0..<collections.below(4) {
                employees[index].levels[levelKeys[collections.below(levelKeys.count)]] = collections.below(10)
            }
            if index > 0 {
                employees[index].pals = Array(Set((0..<collections.below(4)).map { _ in collections.below(index) }))
            }
        }
        // The decimal, ObjectId and mixed values come from a generator of their own, so the other values stay
        // what they were before these properties existed.
        var more = SeededGenerator(seed: seed &+ 1000)
        let texts = ["gold", "Gold", "silver", ""]
        for index in employees.indices {
            employees[index].balance = more.below(10) == 0
                ? Decimal(string: ["1e20", "-0.001", "123456789012345678901234567.5"][more.below(3)])!
                : Decimal(more.below(400) - 200) / 4
            employees[index].code = more.below(4) == 0 ? nil : ObjectId(bytes: Array(repeating: 0, count: 11) + [UInt8(more.below(20))])
            switch more.below(8) {
            case 0: employees[index].extra = .none
            case 1: employees[index].extra = .int(more.below(7) - 3)
            case 2: employees[index].extra = .double(Double(more.below(9) - 4) / 2)
            case 3: employees[index].extra = .decimal(Decimal(more.below(9) - 4) / 2)
            case 4, 5: employees[index].extra = .string(texts[more.below(texts.count)])
            case 6: employees[index].extra = .bool(more.below(2) == 0)
            default: employees[index].extra = .team(more.below(teams.count))
            }
        }
        // The sets and maps of mixed values, from a generator of their own too.
        var mixed = SeededGenerator(seed: seed &+ 2000)
        for index in employees.indices {
            for _ in 0..<mixed.below(5) {
                let charm = drawMixed(&mixed, teams: teams.count)
                if !employees[index].charms.contains(charm) { employees[index].charms.append(charm) }
            }
            for _ in 0..<mixed.below(4) {
                employees[index].extras[mixedKeys[mixed.below(mixedKeys.count)]] = drawMixed(&mixed, teams: teams.count)
            }
        }
        return PlainStaff(employees: employees, teams: teams)
    }
}


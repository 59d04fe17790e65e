import Foundation
import Strata
import StrataTestSupport

/// One predicate of the conformance suite with the oracle's answer for a plain employee.
struct ConformanceCase {
    let predicate: String
    let arguments: [Any]
    let expected: (PlainEmployee, PlainStaff) -> Bool
}

/// The conformance suite's predicates over `Employee`/`IndexedEmployee`: generated for every operator,
/// modifier and property type, hand-written for links, lists, aggregates and subqueries, and random
/// AND/OR/NOT combinations of those.
enum ConformanceCases {
    static func all(staff: PlainStaff) -> [ConformanceCase] {
        let atoms = numbers() + strings() + others(staff) + collections() + setsAndMaps() + RealmCases.all() + moreKinds()
            + mixedCollections()
        return atoms + combinations(of: atoms)
    }

    static let orderings = ["==", "!=", "<", "<=", ">", ">="]

    static func numbers() -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for op in orderings {
            for operand in [-1, 18, 30, 41, 70] {
                cases.append(ConformanceCase(predicate: "age \(op) \(operand)", arguments: []) { e, _ in
                    Oracle.compare(Double(e.age), op, Double(operand))
                })
            }
            for operand in [-100, 0, 500] {
                cases.append(ConformanceCase(predicate: "bonus \(op) %@", arguments: [operand]) { e, _ in
                    Oracle.compare(e.bonus.map(Double.init), op, Double(operand))
                })
            }
            for operand in [2500.5, 5000.0, 0.0] {
                cases.append(ConformanceCase(predicate: "salary \(op) %f", arguments: [operand]) { e, _ in
                    Oracle.compare(e.salary, op, operand)
                })
            }
            // A float property compares with a double as a Float (Realm's rule): `rating == 1.1` finds Float(1.1).
            for operand in [2.5, 3.0, 0.1, 1.1] {
                cases.append(ConformanceCase(predicate: "rating \(op) \(operand)", arguments: []) { e, _ in
                    Oracle.compare(e.rating.map(Double.init), op, Double(Float(operand)))
                })
            }
            cases.append(ConformanceCase(predicate: "age \(op) 30.5", arguments: []) { e, _ in
                Oracle.compare(Double(e.age), op, 30.5)
            })
        }
        for op in ["==", "!="] {
            cases.append(ConformanceCase(predicate: "bonus \(op) nil", arguments: []) { e, _ in (e.bonus == nil) == (op == "==") })
            cases.append(ConformanceCase(predicate: "rating \(op) NULL", arguments: []) { e, _ in (e.rating == nil) == (op == "==") })
            cases.append(ConformanceCase(predicate: "nickname \(op) nil", arguments: []) { e, _ in (e.nickname == nil) == (op == "==") })
            cases.append(ConformanceCase(predicate: "photo \(op) nil", arguments: []) { e, _ in (e.photo == nil) == (op == "==") })
            for flag in [true, false] {
                cases.append(ConformanceCase(predicate: "hired \(op) \(flag ? "YES" : "false")", arguments: []) { e, _ in
                    (e.hired == flag) == (op == "==")
                })
            }
        }
        cases += [
            ConformanceCase(predicate: "age BETWEEN {30, 40}", arguments: []) { e, _ in (30...40).contains(e.age) },
            ConformanceCase(predicate: "bonus BETWEEN %@", arguments: [[0, 200]]) { e, _ in e.bonus.map { (0...200).contains($0) } ?? false },
            ConformanceCase(predicate: "salary BETWEEN {2000, 4000.5}", arguments: []) { e, _ in (2000...4000.5).contains(e.salary) },
            ConformanceCase(predicate: "age IN {18, 30, 41, 99}", arguments: []) { e, _ in [18, 30, 41, 99].contains(e.age) },
            ConformanceCase(predicate: "bonus IN %@", arguments: [[0, 100, 500]]) { e, _ in e.bonus.map { [0, 100, 500].contains($0) } ?? false },
            ConformanceCase(predicate: "NOT age IN {20, 21, 22}", arguments: []) { e, _ in ![20, 21, 22].contains(e.age) },
            ConformanceCase(predicate: "30 < age", arguments: []) { e, _ in e.age > 30 },
            ConformanceCase(predicate: "%K >= %d", arguments: ["age", 50]) { e, _ in e.age >= 50 },
            // Two bounds of one column are scanned as one range.
            ConformanceCase(predicate: "age >= 20 AND age < 30", arguments: []) { e, _ in (20..<30).contains(e.age) },
            ConformanceCase(predicate: "age > 25 AND hired == true AND age <= 40 AND age > 30", arguments: []) { e, _ in
                e.age > 30 && e.age <= 40 && e.hired
            },
            ConformanceCase(predicate: "age > 40 AND age < 30", arguments: []) { _, _ in false },
            ConformanceCase(predicate: "bonus >= 100 AND bonus < 500", arguments: []) { e, _ in e.bonus.map { (100..<500).contains($0) } ?? false },
            ConformanceCase(predicate: "bonus != 100 AND bonus < 500", arguments: []) { e, _ in e.bonus.map { $0 != 100 && $0 < 500 } ?? false },
            ConformanceCase(predicate: "age > %@ AND age >= 0", arguments: [Int.max]) { _, _ in false },
            ConformanceCase(predicate: "age < %@ AND age <= 99", arguments: [Int.min]) { _, _ in false },
        ]
        return cases
    }

    static let stringOperands = ["ana", "Ana", "EMILE", "é", "e", "ss", "STRASSE", "σ", "ΣΊΣΥΦΟΣ", "name-1", "", "日本", "zoë", "Na"]

    static func strings() -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        var pick = 0
        for property in ["name", "nickname"] {
            for op in ["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS"] {
                for options in ["", "[c]", "[d]", "[cd]"] {
                    for _ in 0..<4 {
                        let operand = stringOperands[pick % stringOperands.count]
                        pick += 7
                        cases.append(ConformanceCase(predicate: "\(property) \(op)\(options) %@", arguments: [operand]) { e, _ in
                            Oracle.string(property == "name" ? e.name : e.nickname, op, operand, options: options)
                        })
                    }
                }
            }
            for pattern in ["a*", "*e", "?na", "*m*", "name-?", "*", "a\\*b", "x?y", "é*"] {
                for options in ["", "[c]", "[cd]"] {
                    cases.append(ConformanceCase(predicate: "\(property) LIKE\(options) %@", arguments: [pattern]) { e, _ in
                        Oracle.string(property == "name" ? e.name : e.nickname, "LIKE", pattern, options: options)
                    })
                }
            }
        }
        cases += [
            ConformanceCase(predicate: "name IN {'Ana', 'Bob', 'straße'}", arguments: []) { e, _ in ["Ana", "Bob", "straße"].contains(e.name) },
            ConformanceCase(predicate: "name IN[c] {'ana', 'STRASSE'}", arguments: []) { e, _ in
                ["ana", "STRASSE"].contains { Oracle.string(e.name, "==", $0, options: "c") }
            },
            ConformanceCase(predicate: "nickname IN %@", arguments: [["Ana", "zoe"]]) { e, _ in e.nickname.map { ["Ana", "zoe"].contains($0) } ?? false },
            ConformanceCase(predicate: "name == nickname", arguments: []) { e, _ in e.name == e.nickname },
            ConformanceCase(predicate: "name != nickname", arguments: []) { e, _ in e.name != e.nickname },
            ConformanceCase(predicate: "name BEGINSWITH nickname", arguments: []) { e, _ in
                e.nickname.map { Oracle.string(e.name, "BEGINSWITH", $0, options: "") } ?? false
            },
        ]
        return cases
    }

    static func others(_ staff: PlainStaff) -> [ConformanceCase] {
        let middle = Date(timeIntervalSince1970: 1_600_000_000)
        let badge = staff.employees[3].badge
        var cases: [ConformanceCase] = []
        for op in orderings {
            cases.append(ConformanceCase(predicate: "started \(op) %@", arguments: [middle]) { e, _ in
                Oracle.compare(e.started.timeIntervalSince1970, op, middle.timeIntervalSince1970)
            })
        }
        cases += [
            ConformanceCase(predicate: "started BETWEEN %@", arguments: [[middle, middle.addingTimeInterval(5e7)]]) { e, _ in
                e.started >= middle && e.started <= middle.addingTimeInterval(5e7)
            },
            ConformanceCase(predicate: "badge == %@", arguments: [badge]) { e, _ in e.badge == badge },
            ConformanceCase(predicate: "badge != %@", arguments: [badge]) { e, _ in e.badge != badge },
            ConformanceCase(predicate: "badge == %@", arguments: [badge.uuidString]) { e, _ in e.badge == badge },
            ConformanceCase(predicate: "photo == %@", arguments: [Data([1, 2])]) { e, _ in e.photo == Data([1, 2]) },
            ConformanceCase(predicate: "photo BEGINSWITH %@", arguments: [Data([1])]) { e, _ in e.photo?.first == 1 },
            ConformanceCase(predicate: "photo CONTAINS %@", arguments: [Data([2, 3])]) { e, _ in
                guard let photo = e.photo, photo.count >= 2 else { return false }
                return (0...(photo.count - 2)).contains { photo[$0] == 2 && photo[$0 + 1] == 3 }
            },
            ConformanceCase(predicate: "TRUEPREDICATE", arguments: []) { _, _ in true },
            ConformanceCase(predicate: "FALSEPREDICATE", arguments: []) { _, _ in false },
        ]
        return cases
    }

    static func collections() -> [ConformanceCase] {
        [
            ConformanceCase(predicate: "team == nil", arguments: []) { e, s in s.team(of: e) == nil },
            ConformanceCase(predicate: "team != nil", arguments: []) { e, s in s.team(of: e) != nil },
            ConformanceCase(predicate: "mentor == nil", arguments: []) { e, s in s.mentor(of: e) == nil },
            ConformanceCase(predicate: "team.title == 'Core'", arguments: []) { e, s in s.team(of: e)?.title == "Core" },
            ConformanceCase(predicate: "team.title ==[c] 'core'", arguments: []) { e, s in s.team(of: e)?.title.lowercased() == "core" },
            ConformanceCase(predicate: "team.title ==[cd] 'edition'", arguments: []) { e, s in
                s.team(of: e).map { Oracle.string($0.title, "==", "edition", options: "cd") } ?? false
            },
            ConformanceCase(predicate: "team.budget > 300", arguments: []) { e, s in (s.team(of: e)?.budget ?? 0) > 300 },
            ConformanceCase(predicate: "team.budget <= 250", arguments: []) { e, s in s.team(of: e).map { $0.budget <= 250 } ?? false },
            ConformanceCase(predicate: "team.code IN {'T1', 'T3'}", arguments: []) { e, s in ["T1", "T3"].contains(s.team(of: e)?.code ?? "") },
            ConformanceCase(predicate: "mentor.age > age", arguments: []) { e, s in s.mentor(of: e).map { $0.age > e.age } ?? false },
            ConformanceCase(predicate: "mentor.name BEGINSWITH[c] 'a'", arguments: []) { e, s in
                s.mentor(of: e).map { Oracle.string($0.name, "BEGINSWITH", "a", options: "c") } ?? false
            },
            ConformanceCase(predicate: "mentor.mentor.age < 40", arguments: []) { e, s in
                s.mentor(of: e).flatMap { s.mentor(of: $0) }.map { $0.age < 40 } ?? false
            },
            ConformanceCase(predicate: "mentor.mentor == nil", arguments: []) { e, s in s.mentor(of: e).flatMap { s.mentor(of: $0) } == nil },
            ConformanceCase(predicate: "mentor.bonus == nil", arguments: []) { e, s in s.mentor(of: e)?.bonus == nil },
            // Through one link, a column condition of the linked table: a nil link is a nil value, which `!=` a
            // value matches (and `== nil`: `mentor.bonus == nil` above).
            ConformanceCase(predicate: "team.title != 'Core'", arguments: []) { e, s in s.team(of: e)?.title != "Core" },
            ConformanceCase(predicate: "mentor.age != 40", arguments: []) { e, s in s.mentor(of: e)?.age != 40 },
            ConformanceCase(predicate: "mentor.age BETWEEN {20, 40} AND hired == true", arguments: []) { e, s in
                s.mentor(of: e).map { (20...40).contains($0.age) } == true && e.hired
            },
            ConformanceCase(predicate: "NOT (mentor.bonus > 3) OR team.budget < 200", arguments: []) { e, s in
                !((s.mentor(of: e)?.bonus).map { $0 > 3 } ?? false) || (s.team(of: e).map { $0.budget < 200 } ?? false)
            },
            ConformanceCase(predicate: "mentor.team.budget >= 500", arguments: []) { e, s in
                s.mentor(of: e).flatMap { s.team(of: $0) }.map { $0.budget >= 500 } ?? false
            },
            ConformanceCase(predicate: "ANY skills == 'swift'", arguments: []) { e, _ in e.skills.contains("swift") },
            ConformanceCase(predicate: "skills ==[c] 'SWIFT'", arguments: []) { e, _ in e.skills.contains { $0.lowercased() == "swift" } },
            ConformanceCase(predicate: "ANY skills ==[cd] 'cafe'", arguments: []) { e, _ in
                e.skills.contains { Oracle.string($0, "==", "cafe", options: "cd") }
            },
            ConformanceCase(predicate: "ALL skills BEGINSWITH 's'", arguments: []) { e, _ in e.skills.allSatisfy { $0.hasPrefix("s") } },
            ConformanceCase(predicate: "NONE skills == ''", arguments: []) { e, _ in !e.skills.contains("") },
            ConformanceCase(predicate: "'rust' IN skills", arguments: []) { e, _ in e.skills.contains("rust") },
            ConformanceCase(predicate: "name IN skills", arguments: []) { e, _ in e.skills.contains(e.name) },
            ConformanceCase(predicate: "ANY scores > 7", arguments: []) { e, _ in e.scores.contains { $0 > 7 } },
            ConformanceCase(predicate: "ALL scores >= 3", arguments: []) { e, _ in e.scores.allSatisfy { $0 >= 3 } },
            ConformanceCase(predicate: "NONE scores == 0", arguments: []) { e, _ in !e.scores.contains(0) },
            ConformanceCase(predicate: "5 IN scores", arguments: []) { e, _ in e.scores.contains(5) },
            ConformanceCase(predicate: "scores.@count == 0", arguments: []) { e, _ in e.scores.isEmpty },
            ConformanceCase(predicate: "scores.@count > 2", arguments: []) { e, _ in e.scores.count > 2 },
            ConformanceCase(predicate: "scores.@sum >= 10", arguments: []) { e, _ in e.scores.reduce(0, +) >= 10 },
            ConformanceCase(predicate: "scores.@sum == 0", arguments: []) { e, _ in e.scores.reduce(0, +) == 0 },
            ConformanceCase(predicate: "scores.@avg > 4.5", arguments: []) { e, _ in
                e.scores.isEmpty ? false : Double(e.scores.reduce(0, +)) / Double(e.scores.count) > 4.5
            },
            ConformanceCase(predicate: "scores.@min == 0", arguments: []) { e, _ in e.scores.min() == 0 },
            ConformanceCase(predicate: "scores.@max < 5", arguments: []) { e, _ in e.scores.max().map { $0 < 5 } ?? false },
            ConformanceCase(predicate: "skills.@count >= 2", arguments: []) { e, _ in e.skills.count >= 2 },
            ConformanceCase(predicate: "skills.@count != 1", arguments: []) { e, _ in e.skills.count != 1 },
            ConformanceCase(predicate: "scores.@count <= 1", arguments: []) { e, _ in e.scores.count <= 1 },
            ConformanceCase(predicate: "friends.@count < 2 AND age > 30", arguments: []) { e, s in
                s.friends(of: e).count < 2 && e.age > 30
            },
            ConformanceCase(predicate: "NOT (friends.@count == 1) OR hired == false", arguments: []) { e, s in
                s.friends(of: e).count != 1 || !e.hired
            },
            ConformanceCase(predicate: "friends.@count == 0", arguments: []) { e, s in s.friends(of: e).isEmpty },
            ConformanceCase(predicate: "friends.@count >= 2", arguments: []) { e, s in s.friends(of: e).count >= 2 },
            ConformanceCase(predicate: "ANY friends.age > 60", arguments: []) { e, s in s.friends(of: e).contains { $0.age > 60 } },
            ConformanceCase(predicate: "ALL friends.hired == true", arguments: []) { e, s in s.friends(of: e).allSatisfy(\.hired) },
            ConformanceCase(predicate: "NONE friends.name BEGINSWITH 'A'", arguments: []) { e, s in
                !s.friends(of: e).contains { $0.name.hasPrefix("A") }
            },
            ConformanceCase(predicate: "ANY friends.nickname == nil", arguments: []) { e, s in s.friends(of: e).contains { $0.nickname == nil } },
            ConformanceCase(predicate: "ANY friends.team.title == 'Ops'", arguments: []) { e, s in
                s.friends(of: e).contains { s.team(of: $0)?.title == "Ops" }
            },
            ConformanceCase(predicate: "friends.@avg.salary > 5000", arguments: []) { e, s in
                let friends = s.friends(of: e)
                return friends.isEmpty ? false : friends.map(\.salary).reduce(0, +) / Double(friends.count) > 5000
            },
            ConformanceCase(predicate: "friends.@sum.age > 100", arguments: []) { e, s in s.friends(of: e).map(\.age).reduce(0, +) > 100 },
            ConformanceCase(predicate: "friends.@max.age > mentor.age", arguments: []) { e, s in
                guard let best = s.friends(of: e).map(\.age).max(), let mentor = s.mentor(of: e) else { return false }
                return best > mentor.age
            },
            ConformanceCase(predicate: "friends.@min.bonus < 0", arguments: []) { e, s in
                s.friends(of: e).compactMap(\.bonus).min().map { $0 < 0 } ?? false
            },
            ConformanceCase(predicate: "friends.@max.started > %@", arguments: [Date(timeIntervalSince1970: 1_650_000_000)]) { e, s in
                s.friends(of: e).map(\.started).max().map { $0 > Date(timeIntervalSince1970: 1_650_000_000) } ?? false
            },
            ConformanceCase(predicate: "SUBQUERY(friends, $f, $f.age > 30 AND $f.hired == true).@count > 0", arguments: []) { e, s in
                s.friends(of: e).contains { $0.age > 30 && $0.hired }
            },
            ConformanceCase(predicate: "SUBQUERY(friends, $f, $f.scores.@count > 1 OR $f.nickname != nil).@count >= 2", arguments: []) { e, s in
                s.friends(of: e).filter { $0.scores.count > 1 || $0.nickname != nil }.count >= 2
            },
            ConformanceCase(predicate: "SUBQUERY(skills, $s, $s BEGINSWITH[c] 's').@count == skills.@count", arguments: []) { e, _ in
                e.skills.allSatisfy { $0.lowercased().hasPrefix("s") }
            },
            ConformanceCase(predicate: "SUBQUERY(friends, $f, SUBQUERY($f.friends, $g, $g.age < 25).@count > 0).@count > 0", arguments: []) { e, s in
                s.friends(of: e).contains { s.friends(of: $0).contains { $0.age < 25 } }
            },
        ]
    }

    /// `decimal`, `objectId` and `any`: ordering by value, literals (`decimal(…)`, `oid(…)`), arguments, and mixed
    /// values compared across numeric kinds, as strings, and as links.
    static func moreKinds() -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        func order(_ a: Decimal, _ op: String, _ b: Decimal) -> Bool {
            switch op {
            case "==": return a == b
            case "!=": return a != b
            case "<": return a < b
            case "<=": return a <= b
            case ">": return a > b
            default: return a >= b
            }
        }
        for op in orderings {
            for operand in ["0", "-12.25", "10.5", "1e20"] {
                let value = Decimal(string: operand)!
                cases.append(ConformanceCase(predicate: "balance \(op) \(operand)", arguments: []) { e, _ in order(e.balance, op, value) })
                cases.append(ConformanceCase(predicate: "balance \(op) %@", arguments: [value]) { e, _ in order(e.balance, op, value) })
            }
            cases.append(ConformanceCase(predicate: "balance \(op) decimal(-0.0010)", arguments: []) { e, _ in
                order(e.balance, op, Decimal(string: "-0.001")!)
            })
            let code = ObjectId(bytes: Array(repeating: 0, count: 11) + [9])!
            cases.append(ConformanceCase(predicate: "code \(op) %@", arguments: [code]) { e, _ in
                guard let mine = e.code else { return op == "!=" }
                switch op {
                case "==": return mine == code
                case "!=": return mine != code
                case "<": return mine < code
                case "<=": return mine <= code
                case ">": return mine > code
                default: return mine >= code
                }
            })
            for operand in ["1", "0.5", "2", "-1.5"] {
                let value = Decimal(string: operand)!
                cases.append(ConformanceCase(predicate: "extra \(op) \(operand)", arguments: []) { e, _ in
                    guard let number = e.extra.number else { return op == "!=" }
                    return order(number, op, value)
                })
            }
        }
        let oid = ObjectId(bytes: Array(repeating: 0, count: 11) + [3])!
        cases += [
            ConformanceCase(predicate: "balance BETWEEN {-10, 10}", arguments: []) { e, _ in e.balance >= -10 && e.balance <= 10 },
            ConformanceCase(predicate: "balance IN {0, 12.25, -0.001}", arguments: []) { e, _ in
                [0, Decimal(string: "12.25")!, Decimal(string: "-0.001")!].contains(e.balance)
            },
            ConformanceCase(predicate: "code == oid(\(oid.stringValue))", arguments: []) { e, _ in e.code == oid },
            ConformanceCase(predicate: "code == nil", arguments: []) { e, _ in e.code == nil },
            ConformanceCase(predicate: "code IN %@", arguments: [[oid, ObjectId(bytes: Array(repeating: 0, count: 11) + [4])!]]) { e, _ in
                e.code == oid || e.code?.bytes.last == 4
            },
            ConformanceCase(predicate: "extra == nil", arguments: []) { e, s in
                if case .none = e.extra { return true }
                if case .team(let index) = e.extra { return s.teams[index].isDeleted }
                return false
            },
            ConformanceCase(predicate: "extra == 'gold'", arguments: []) { e, _ in if case .string("gold") = e.extra { true } else { false } },
            ConformanceCase(predicate: "extra ==[c] 'GOLD'", arguments: []) { e, _ in
                if case .string(let text) = e.extra { text.lowercased() == "gold" } else { false }
            },
            ConformanceCase(predicate: "extra BEGINSWITH 's'", arguments: []) { e, _ in
                if case .string(let text) = e.extra { text.hasPrefix("s") } else { false }
            },
            ConformanceCase(predicate: "extra == true", arguments: []) { e, _ in if case .bool(true) = e.extra { true } else { false } },
            ConformanceCase(predicate: "extra IN {1, 'silver', 1.5}", arguments: []) { e, _ in
                if case .string("silver") = e.extra { return true }
                return e.extra.number == 1 || e.extra.number == Decimal(string: "1.5")
            },
            ConformanceCase(predicate: "extra == %@", arguments: [AnyValue.decimal(Decimal(string: "-1")!)]) { e, _ in e.extra.number == -1 },
        ]
        return cases
    }

    /// The `set<any>` (`charms`) and `map<any?>` (`extras`): numbers compared across int, double and decimal,
    /// strings with options, nil elements and values, counts, keys and values; links to a deleted team are gone from
    /// the set and nil in the map.
    static func mixedCollections() -> [ConformanceCase] {
        func text(_ value: PlainMixed) -> String? { if case .string(let text) = value { text } else { nil } }
        func number(_ value: PlainMixed?, _ op: String, _ operand: Decimal) -> Bool {
            guard let number = value?.number else { return false }
            switch op {
            case "==": return number == operand
            case "<": return number < operand
            default: return number >= operand
            }
        }
        var cases: [ConformanceCase] = []
        for op in ["==", "<", ">="] {
            for operand in ["1", "0.5", "-1", "0"] {
                let value = Decimal(string: operand)!
                cases.append(ConformanceCase(predicate: "ANY charms \(op) \(operand)", arguments: []) { e, s in
                    s.charms(of: e).contains { number($0, op, value) }
                })
                cases.append(ConformanceCase(
                    predicate: "ANY extras.@allValues \(op) \(operand)", arguments: []
                ) { e, s in
                    s.extras(of: e).values.contains { number($0, op, value) }
                })
            }
            cases.append(ConformanceCase(predicate: "extras['a'] \(op) 0.5", arguments: []) { e, s in
                number(s.extras(of: e)["a"], op, Decimal(string: "0.5")!)
            })
        }
        cases += [
            ConformanceCase(predicate: "ANY charms == 'gold'", arguments: []) { e, s in
                s.charms(of: e).contains(.string("gold"))
            },
            ConformanceCase(predicate: "ANY charms ==[c] 'GOLD'", arguments: []) { e, s in
                s.charms(of: e).contains { text($0)?.lowercased() == "gold" }
            },
            ConformanceCase(predicate: "'silver' IN charms", arguments: []) { e, s in
                s.charms(of: e).contains(.string("silver"))
            },
            ConformanceCase(predicate: "ANY charms BEGINSWITH 'g'", arguments: []) { e, s in
                s.charms(of: e).contains { text($0)?.hasPrefix("g") == true }
            },
            ConformanceCase(predicate: "ANY charms == nil", arguments: []) { e, s in
                s.charms(of: e).contains(PlainMixed.none)
            },
            ConformanceCase(predicate: "ANY charms == true", arguments: []) { e, s in
                s.charms(of: e).contains(.bool(true))
            },
            ConformanceCase(predicate: "NONE charms < 0", arguments: []) { e, s in
                !s.charms(of: e).contains { number($0, "<", 0) }
            },
            ConformanceCase(predicate: "ALL charms >= -1", arguments: []) { e, s in
                s.charms(of: e).allSatisfy { number($0, ">=", -1) }
            },
            ConformanceCase(predicate: "charms.@count == 0", arguments: []) { e, s in s.charms(of: e).isEmpty },
            ConformanceCase(predicate: "charms.@count >= 3", arguments: []) { e, s in s.charms(of: e).count >= 3 },
            // A map keeps the key of a deleted target: its count still holds the entry.
            ConformanceCase(predicate: "extras.@count == 2", arguments: []) { e, s in s.extras(of: e).count == 2 },
            ConformanceCase(predicate: "extras.@count < 2", arguments: []) { e, s in s.extras(of: e).count < 2 },
            ConformanceCase(predicate: "extras['a'] == nil", arguments: []) { e, s in
                (s.extras(of: e)["a"] ?? PlainMixed.none) == PlainMixed.none
            },
            ConformanceCase(predicate: "extras['b'] == 'gold'", arguments: []) { e, s in
                s.extras(of: e)["b"] == .string("gold")
            },
            ConformanceCase(predicate: "extras['b'] BEGINSWITH[c] 'g'", arguments: []) { e, s in
                s.extras(of: e)["b"].flatMap(text)?.lowercased().hasPrefix("g") == true
            },
            ConformanceCase(predicate: "ANY extras.@allValues == 'silver'", arguments: []) { e, s in
                s.extras(of: e).values.contains(.string("silver"))
            },
            ConformanceCase(predicate: "ANY extras.@allValues == false", arguments: []) { e, s in
                s.extras(of: e).values.contains(.bool(false))
            },
            ConformanceCase(predicate: "ANY extras.@allValues == nil", arguments: []) { e, s in
                s.extras(of: e).values.contains(PlainMixed.none)
            },
            ConformanceCase(predicate: "ANY extras.@allKeys == 'A'", arguments: []) { e, s in
                s.extras(of: e).keys.contains("A")
            },
            ConformanceCase(predicate: "ANY extras.@allKeys ==[c] 'a'", arguments: []) { e, s in
                s.extras(of: e).keys.contains { $0.lowercased() == "a" }
            },
            ConformanceCase(predicate: "extras.@count == 0", arguments: []) { e, s in s.extras(of: e).isEmpty },
            ConformanceCase(predicate: "extras.@count >= 2", arguments: []) { e, s in s.extras(of: e).count >= 2 },
        ]
        return cases
    }

    /// Random AND / OR / NOT combinations of the atoms, from a fixed seed.
    static func combinations(of atoms: [ConformanceCase]) -> [ConformanceCase] {
        var random = SeededGenerator(seed: 42)
        var cases: [ConformanceCase] = []
        for _ in 0..<120 {
            let a = atoms[random.below(atoms.count)], b = atoms[random.below(atoms.count)], c = atoms[random.below(atoms.count)]
            switch random.below(4) {
            case 0:
                cases.append(ConformanceCase(predicate: "(\(a.predicate)) AND (\(b.predicate))", arguments: a.arguments + b.arguments) {
                    a.expected($0, $1) && b.expected($0, $1)
                })
            case 1:
                cases.append(ConformanceCase(predicate: "(\(a.predicate)) OR (\(b.predicate))", arguments: a.arguments + b.arguments) {
                    a.expected($0, $1) || b.expected($0, $1)
                })
            case 2:
                cases.append(ConformanceCase(predicate: "NOT (\(a.predicate)) && (\(b.predicate) || \(c.predicate))",
                                             arguments: a.arguments + b.arguments + c.arguments) {
                    !a.expected($0, $1) && (b.expected($0, $1) || c.expected($0, $1))
                })
            default:
                cases.append(ConformanceCase(predicate: "(\(a.predicate)) AND (\(b.predicate)) AND NOT (\(c.predicate))",
                                             arguments: a.arguments + b.arguments + c.arguments) {
                    a.expected($0, $1) && b.expected($0, $1) && !c.expected($0, $1)
                })
            }
        }
        return cases
    }

    /// Sets (`tags`, `pals`) and maps (`levels`): quantifiers, aggregates, keys and values, key paths through them.
    static func setsAndMaps() -> [ConformanceCase] {
        func mean(_ values: [Int]) -> Double? {
            values.isEmpty ? nil : Double(values.reduce(0, +)) / Double(values.count)
        }
        return [
            ConformanceCase(predicate: "ANY tags == 'swift'", arguments: []) { e, _ in e.tags.contains("swift") },
            ConformanceCase(predicate: "'rust' IN tags", arguments: []) { e, _ in e.tags.contains("rust") },
            ConformanceCase(predicate: "%@ IN tags", arguments: ["café"]) { e, _ in e.tags.contains("café") },
            ConformanceCase(predicate: "ANY tags ==[cd] 'cafe'", arguments: []) { e, _ in
                e.tags.contains { Oracle.string($0, "==", "cafe", options: "cd") }
            },
            ConformanceCase(predicate: "ANY tags CONTAINS[c] 'WIF'", arguments: []) { e, _ in
                e.tags.contains { Oracle.string($0, "CONTAINS", "WIF", options: "c") }
            },
            ConformanceCase(predicate: "ALL tags BEGINSWITH 's'", arguments: []) { e, _ in e.tags.allSatisfy { $0.hasPrefix("s") } },
            ConformanceCase(predicate: "NONE tags == ''", arguments: []) { e, _ in !e.tags.contains("") },
            ConformanceCase(predicate: "tags.@count == 0", arguments: []) { e, _ in e.tags.isEmpty },
            ConformanceCase(predicate: "tags.@count >= 2", arguments: []) { e, _ in e.tags.count >= 2 },
            ConformanceCase(predicate: "name IN tags", arguments: []) { e, _ in e.tags.contains(e.name) },
            ConformanceCase(predicate: "levels['math'] > 5", arguments: []) { e, _ in (e.levels["math"] ?? -1) > 5 },
            ConformanceCase(predicate: "levels['math'] == nil", arguments: []) { e, _ in e.levels["math"] == nil },
            ConformanceCase(predicate: "levels['Art'] != 3", arguments: []) { e, _ in e.levels["Art"] != 3 },
            ConformanceCase(predicate: "levels.art <= 4", arguments: []) { e, _ in e.levels["art"].map { $0 <= 4 } ?? false },
            ConformanceCase(predicate: "levels[''] == 0", arguments: []) { e, _ in e.levels[""] == 0 },
            ConformanceCase(predicate: "ANY levels > 8", arguments: []) { e, _ in e.levels.values.contains { $0 > 8 } },
            ConformanceCase(predicate: "ALL levels >= 3", arguments: []) { e, _ in e.levels.values.allSatisfy { $0 >= 3 } },
            ConformanceCase(predicate: "NONE levels.@allValues == 0", arguments: []) { e, _ in !e.levels.values.contains(0) },
            ConformanceCase(predicate: "levels.@count == 0", arguments: []) { e, _ in e.levels.isEmpty },
            ConformanceCase(predicate: "levels.@count >= 2", arguments: []) { e, _ in e.levels.count >= 2 },
            ConformanceCase(predicate: "levels.@sum > 10", arguments: []) { e, _ in e.levels.values.reduce(0, +) > 10 },
            ConformanceCase(predicate: "levels.@avg < 4.5", arguments: []) { e, _ in mean(Array(e.levels.values)).map { $0 < 4.5 } ?? false },
            ConformanceCase(predicate: "levels.@min == 0", arguments: []) { e, _ in e.levels.values.min() == 0 },
            ConformanceCase(predicate: "levels.@max < 5", arguments: []) { e, _ in e.levels.values.max().map { $0 < 5 } ?? false },
            ConformanceCase(predicate: "ANY levels.@allKeys == 'art'", arguments: []) { e, _ in e.levels.keys.contains("art") },
            ConformanceCase(predicate: "ANY levels.@allKeys ==[c] 'ART'", arguments: []) { e, _ in
                e.levels.keys.contains { $0.lowercased() == "art" }
            },
            ConformanceCase(predicate: "levels.@allKeys BEGINSWITH 'm'", arguments: []) { e, _ in e.levels.keys.contains { $0.hasPrefix("m") } },
            ConformanceCase(predicate: "levels.@allKeys.@count == 1", arguments: []) { e, _ in e.levels.count == 1 },
            ConformanceCase(predicate: "pals.@count == 0", arguments: []) { e, s in s.pals(of: e).isEmpty },
            ConformanceCase(predicate: "pals.@count >= 2", arguments: []) { e, s in s.pals(of: e).count >= 2 },
            ConformanceCase(predicate: "ANY pals.age > 60", arguments: []) { e, s in s.pals(of: e).contains { $0.age > 60 } },
            ConformanceCase(predicate: "ALL pals.hired == true", arguments: []) { e, s in s.pals(of: e).allSatisfy(\.hired) },
            ConformanceCase(predicate: "NONE pals.name BEGINSWITH 'A'", arguments: []) { e, s in
                !s.pals(of: e).contains { $0.name.hasPrefix("A") }
            },
            ConformanceCase(predicate: "SUBQUERY(pals, $p, 'rust' IN $p.tags).@count > 0", arguments: []) { e, s in
                s.pals(of: e).contains { $0.tags.contains("rust") }
            },
            ConformanceCase(predicate: "pals.@max.age < 40", arguments: []) { e, s in
                s.pals(of: e).map(\.age).max().map { $0 < 40 } ?? false
            },
            ConformanceCase(predicate: "SUBQUERY(pals, $p, $p.levels['math'] > 4).@count > 0", arguments: []) { e, s in
                s.pals(of: e).contains { ($0.levels["math"] ?? -1) > 4 }
            },
            ConformanceCase(predicate: "SUBQUERY(tags, $t, $t BEGINSWITH 's').@count == 1", arguments: []) { e, _ in
                e.tags.filter { $0.hasPrefix("s") }.count == 1
            },
        ]
    }
}

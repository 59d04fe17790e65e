import Foundation

/// The conformance cases of issue #25: predicates as Realm users write them, with Realm's answers written out
/// by the oracle (empty operands of the text operators match nothing, strings order by Unicode scalars, `%K` names
/// single components, to-many steps chain, data takes the text operators, bools compare with 0 and 1, a
/// parenthesised constant is the constant, float properties compare as Floats).
enum RealmCases {
    static func all() -> [ConformanceCase] {
        emptyOperands() + stringOrdering() + keyPathArguments() + severalLists() + data() + smallSyntax() + floats()
    }

    /// Item 1: `BEGINSWITH ''`, `ENDSWITH ''`, `CONTAINS ''` match nothing, whatever the options, also through a
    /// link; `== ''` still matches empty strings.
    static func emptyOperands() -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for op in ["BEGINSWITH", "ENDSWITH", "CONTAINS", "==", "!=", "LIKE"] {
            for options in ["", "[c]", "[d]", "[cd]"] {
                for property in ["name", "nickname"] {
                    cases.append(ConformanceCase(predicate: "\(property) \(op)\(options) ''", arguments: []) { e, _ in
                        Oracle.string(property == "name" ? e.name : e.nickname, op, "", options: options)
                    })
                }
                cases.append(ConformanceCase(predicate: "mentor.name \(op)\(options) %@", arguments: [""]) { e, s in
                    s.mentor(of: e).map { Oracle.string($0.name, op, "", options: options) } ?? (op == "!=")
                })
            }
        }
        cases.append(ConformanceCase(predicate: "ANY skills BEGINSWITH ''", arguments: []) { _, _ in false })
        cases.append(ConformanceCase(predicate: "NONE skills CONTAINS[c] ''", arguments: []) { _, _ in true })
        return cases
    }

    /// Item 3: `<`, `<=`, `>`, `>=` on strings, by Unicode scalar values, folded first under `[c]`/`[d]`.
    static func stringOrdering() -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        for op in ["<", "<=", ">", ">="] {
            for options in ["", "[c]", "[cd]"] {
                for operand in ["ana", "Bob", "emile", "zoë", "日本", "é", ""] {
                    cases.append(ConformanceCase(predicate: "name \(op)\(options) %@", arguments: [operand]) { e, _ in
                        Oracle.string(e.name, op, operand, options: options)
                    })
                }
                cases.append(ConformanceCase(predicate: "nickname \(op)\(options) 'N'", arguments: []) { e, _ in
                    Oracle.string(e.nickname, op, "N", options: options)
                })
            }
        }
        cases += [
            ConformanceCase(predicate: "name < nickname", arguments: []) { e, _ in
                e.nickname.map { Oracle.string(e.name, "<", $0, options: "") } ?? false
            },
            ConformanceCase(predicate: "name >=[c] nickname", arguments: []) { e, _ in
                e.nickname.map { Oracle.string(e.name, ">=", $0, options: "c") } ?? false
            },
            ConformanceCase(predicate: "team.title > 'D'", arguments: []) { e, s in
                s.team(of: e).map { Oracle.string($0.title, ">", "D", options: "") } ?? false
            },
            ConformanceCase(predicate: "ANY skills < 's'", arguments: []) { e, _ in
                e.skills.contains { Oracle.string($0, "<", "s", options: "") }
            },
            ConformanceCase(predicate: "'m' < name", arguments: []) { e, _ in Oracle.string(e.name, ">", "m", options: "") },
        ]
        return cases
    }

    /// Item 2: each `%K` is one component (or a dotted path) of a longer key path.
    static func keyPathArguments() -> [ConformanceCase] {
        [
            ConformanceCase(predicate: "%K.%K == %@", arguments: ["team", "title", "Core"]) { e, s in s.team(of: e)?.title == "Core" },
            ConformanceCase(predicate: "team.%K ==[c] %@", arguments: ["title", "core"]) { e, s in
                s.team(of: e).map { $0.title.lowercased() == "core" } ?? false
            },
            ConformanceCase(predicate: "%K.age > %d", arguments: ["mentor", 40]) { e, s in s.mentor(of: e).map { $0.age > 40 } ?? false },
            ConformanceCase(predicate: "%K.%K >= %@", arguments: ["mentor.team", "budget", 500]) { e, s in
                s.mentor(of: e).flatMap { s.team(of: $0) }.map { $0.budget >= 500 } ?? false
            },
            ConformanceCase(predicate: "ANY %K.%K > 7", arguments: ["friends", "scores"]) { e, s in
                s.friends(of: e).contains { $0.scores.contains { $0 > 7 } }
            },
            ConformanceCase(predicate: "SUBQUERY(friends, $f, $f.%K < 30).@count > 0", arguments: ["age"]) { e, s in
                s.friends(of: e).contains { $0.age < 30 }
            },
        ]
    }

    /// Item 4: several to-many steps in one key path compare every value they reach: ANY holds when one does,
    /// ALL when every one does (true when none is reached), NONE when none does.
    static func severalLists() -> [ConformanceCase] {
        func reached(_ e: PlainEmployee, _ s: PlainStaff) -> [PlainEmployee] {
            s.friends(of: e).flatMap { s.friends(of: $0) }
        }
        return [
            ConformanceCase(predicate: "ANY friends.friends.name BEGINSWITH 'A'", arguments: []) { e, s in
                reached(e, s).contains { $0.name.hasPrefix("A") }
            },
            ConformanceCase(predicate: "ANY friends.friends.age > 60", arguments: []) { e, s in reached(e, s).contains { $0.age > 60 } },
            ConformanceCase(predicate: "ALL friends.friends.hired == true", arguments: []) { e, s in reached(e, s).allSatisfy(\.hired) },
            ConformanceCase(predicate: "NONE friends.friends.age < 30", arguments: []) { e, s in !reached(e, s).contains { $0.age < 30 } },
            ConformanceCase(predicate: "friends.friends.nickname == nil", arguments: []) { e, s in
                reached(e, s).contains { $0.nickname == nil }
            },
            ConformanceCase(predicate: "ANY friends.skills ==[c] 'swift'", arguments: []) { e, s in
                s.friends(of: e).contains { $0.skills.contains { $0.lowercased() == "swift" } }
            },
            ConformanceCase(predicate: "ALL friends.scores >= 2", arguments: []) { e, s in
                s.friends(of: e).allSatisfy { $0.scores.allSatisfy { $0 >= 2 } }
            },
            ConformanceCase(predicate: "ANY friends.friends.friends.scores == 9", arguments: []) { e, s in
                reached(e, s).flatMap { s.friends(of: $0) }.contains { $0.scores.contains(9) }
            },
            ConformanceCase(predicate: "ANY friends.mentor.friends.team.title == 'Ops'", arguments: []) { e, s in
                s.friends(of: e).compactMap { s.mentor(of: $0) }.flatMap { s.friends(of: $0) }
                    .contains { s.team(of: $0)?.title == "Ops" }
            },
            ConformanceCase(predicate: "name IN friends.friends.name", arguments: []) { e, s in reached(e, s).contains { $0.name == e.name } },
        ]
    }

    /// Item 5: `==[c]`, `LIKE`, the text operators and ordering on data (bytes; read as UTF-8 under `[c]`, `[d]`
    /// and `LIKE`); an empty data operand of `BEGINSWITH`, `ENDSWITH`, `CONTAINS` matches nothing.
    static func data() -> [ConformanceCase] {
        func bytes(_ e: PlainEmployee) -> [UInt8]? { e.photo.map { Array($0) } }
        var cases: [ConformanceCase] = []
        for (op, test) in [("<", { (a: [UInt8], b: [UInt8]) in a.lexicographicallyPrecedes(b) }),
                           ("<=", { !$1.lexicographicallyPrecedes($0) }),
                           (">", { $1.lexicographicallyPrecedes($0) }),
                           (">=", { !$0.lexicographicallyPrecedes($1) })] {
            for operand in [[1, 2], [], [3]] as [[UInt8]] {
                cases.append(ConformanceCase(predicate: "photo \(op) %@", arguments: [Data(operand)]) { e, _ in
                    bytes(e).map { test($0, operand) } ?? false
                })
            }
        }
        for op in ["BEGINSWITH", "ENDSWITH", "CONTAINS"] {
            cases.append(ConformanceCase(predicate: "photo \(op) %@", arguments: [Data()]) { _, _ in false })
            cases.append(ConformanceCase(predicate: "photo \(op)[c] %@", arguments: [Data()]) { _, _ in false })
        }
        cases += [
            ConformanceCase(predicate: "photo ==[c] %@", arguments: [Data([1, 2])]) { e, _ in bytes(e) == [1, 2] },
            ConformanceCase(predicate: "photo ENDSWITH %@", arguments: [Data([3])]) { e, _ in bytes(e)?.last == 3 },
            ConformanceCase(predicate: "photo ENDSWITH[c] %@", arguments: [Data([0, 3])]) { e, _ in
                bytes(e).map { $0.count >= 2 && Array($0.suffix(2)) == [0, 3] } ?? false
            },
            // `*` is byte 42: photos starting with 1.
            ConformanceCase(predicate: "photo LIKE %@", arguments: [Data([1, 42])]) { e, _ in bytes(e)?.first == 1 },
            ConformanceCase(predicate: "photo LIKE %@", arguments: [Data()]) { e, _ in bytes(e) == [] },
            ConformanceCase(predicate: "photo == %@", arguments: [Data()]) { e, _ in bytes(e) == [] },
        ]
        return cases
    }

    /// Item 7: `boolCol == 0` / `== 1`, and a parenthesised constant.
    static func smallSyntax() -> [ConformanceCase] {
        [
            ConformanceCase(predicate: "hired == 1", arguments: []) { e, _ in e.hired },
            ConformanceCase(predicate: "hired == 0", arguments: []) { e, _ in !e.hired },
            ConformanceCase(predicate: "hired != 1", arguments: []) { e, _ in !e.hired },
            ConformanceCase(predicate: "hired IN {0}", arguments: []) { e, _ in !e.hired },
            ConformanceCase(predicate: "bonus = (null)", arguments: []) { e, _ in e.bonus == nil },
            ConformanceCase(predicate: "team == (nil)", arguments: []) { e, s in s.team(of: e) == nil },
            ConformanceCase(predicate: "age > (40)", arguments: []) { e, _ in e.age > 40 },
            ConformanceCase(predicate: "name == ((%@))", arguments: ["Ana"]) { e, _ in e.name == "Ana" },
            ConformanceCase(predicate: "age IN {(20), 30}", arguments: []) { e, _ in e.age == 20 || e.age == 30 },
        ]
    }

    /// Item 8: a float property compared with a double (literal, `%f`, `%@` with a Double, `IN`, `BETWEEN`) as a
    /// Float.
    static func floats() -> [ConformanceCase] {
        let tenth = Float(1.1)
        return [
            ConformanceCase(predicate: "rating == %f", arguments: [1.1]) { e, _ in e.rating == tenth },
            ConformanceCase(predicate: "rating == %@", arguments: [1.1]) { e, _ in e.rating == tenth },
            ConformanceCase(predicate: "rating == %@", arguments: [Float(1.1)]) { e, _ in e.rating == tenth },
            ConformanceCase(predicate: "rating != 1.1", arguments: []) { e, _ in e.rating != tenth },
            ConformanceCase(predicate: "rating IN {1.1, 2.5}", arguments: []) { e, _ in e.rating == tenth || e.rating == 2.5 },
            ConformanceCase(predicate: "rating IN %@", arguments: [[1.1, 4.0]]) { e, _ in e.rating == tenth || e.rating == 4 },
            ConformanceCase(predicate: "rating BETWEEN {1.1, 2}", arguments: []) { e, _ in e.rating.map { $0 >= tenth && $0 <= 2 } ?? false },
            ConformanceCase(predicate: "rating <= 1.1", arguments: []) { e, _ in e.rating.map { $0 <= tenth } ?? false },
            ConformanceCase(predicate: "rating > 1.1", arguments: []) { e, _ in e.rating.map { $0 > tenth } ?? false },
            ConformanceCase(predicate: "ANY friends.rating == 1.1", arguments: []) { e, s in s.friends(of: e).contains { $0.rating == tenth } },
        ]
    }
}

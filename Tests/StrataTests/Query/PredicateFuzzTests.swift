import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Mutated predicate strings (the conformance suite's, with characters and tokens deleted, repeated, swapped in
/// and cut off) and wrong, missing or extra arguments. Each must either run, giving a count, or throw a
/// `StrataError`: never stop the program. A bounded run is part of the default suite; `STRATA_LONG_TESTS=1` runs
/// many more.
final class PredicateFuzzTests: StaffTestCase {
    private var mutations: Int { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 500_000 : 20_000 }

    /// Pieces a mutation may insert: operators, modifiers, placeholders, literals, aggregates, brackets.
    private static let vocabulary = [
        " AND ", " OR ", "NOT ", "(", ")", "{", "}", "[c]", "[cd]", " == ", " != ", " < ", " >= ", " BETWEEN ",
        " IN ", " BEGINSWITH ", " ENDSWITH ", " CONTAINS ", " LIKE ", " ANY ", " ALL ", " NONE ", "SUBQUERY(",
        "$x", "@count", "@sum", "@avg", "@min", ".", ",", "%@", "%K", "%d", "%f", "'", "\"", "\\", "nil", "true",
        "FALSEPREDICATE", "TRUEPREDICATE", "-", "3", "2.5e300", "-9223372036854775808", "99999999999999999999",
        "name", "age", "team", "team.budget", "friends", "skills", "scores", "badge", "started", "é", "\u{0}", "🙂",
        "'a*?b'", "UUID(", "T2024-01-01@00:00:00",
    ]

    /// Arguments a mutation may pass, of every type a predicate takes and some it does not.
    private var argumentPool: [Any] {
        [
            18, -1, Int64.max, 2.5, Double.nan, "name", "a", "", true, UUID(), Date(timeIntervalSince1970: 0), [1, 2],
            ["x"], NSNull(), Data([1, 2]), Float(1.5),
        ]
    }

    func testMutatedPredicatesRunOrThrowAStrataError() throws {
        let db = try openStaff()
        let staff = makeStaff(count: 40)
        try store(staff, as: Employee.self, in: db)
        let seeds = ConformanceCases.all(staff: staff)
        var random = SeededGenerator(seed: 2026_11_24)
        var accepted = 0
        var refused = 0
        for _ in 0..<mutations {
            let seed = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            let predicate = mutate(seed.predicate, random: &random)
            let arguments = mutate(seed.arguments, random: &random)
            do {
                _ = try db.objects(Employee.self).filter(predicate, arguments: arguments).count
                accepted += 1
            } catch is StrataError {
                refused += 1
            } catch {
                XCTFail("`\(predicate)` threw \(error), which is not a StrataError")
            }
        }
        // Both outcomes must occur, or the mutations are too timid or too wild to test anything.
        XCTAssertGreaterThan(accepted, mutations / 20)
        XCTAssertGreaterThan(refused, mutations / 20)
    }

    private func mutate(_ text: String, random: inout SeededGenerator) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let position = Int.random(in: 0...characters.count, using: &random)
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !characters.isEmpty:
                let end = min(characters.count, position + Int.random(in: 1...4, using: &random))
                characters.removeSubrange(min(position, characters.count - 1)..<end)
            case 1:
                characters.insert(contentsOf: Self.vocabulary.randomElement(using: &random)!, at: position)
            case 2 where position < characters.count:
                let end = min(characters.count, position + Int.random(in: 1...6, using: &random))
                characters.insert(contentsOf: characters[position..<end], at: end)
            case 3:
                characters.removeSubrange(position...)
            default:
                if position < characters.count {
                    characters[position] = Character(Unicode.Scalar(UInt8.random(in: 32...126, using: &random)))
                }
            }
        }
        return String(characters)
    }

    private func mutate(_ arguments: [Any], random: inout SeededGenerator) -> [Any] {
        var arguments = arguments
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !arguments.isEmpty: arguments.removeLast()
        case 1: arguments.append(argumentPool.randomElement(using: &random)!)
        case 2 where !arguments.isEmpty:
            arguments[Int.random(in: 0..<arguments.count, using: &random)] = argumentPool.randomElement(using: &random)!
        default: break
        }
        return arguments
    }
}

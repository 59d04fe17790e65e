import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Random assignments, replacements, list changes, re-adds, creates, refused thefts and deletes through the public
/// API, compared after every commit with a brute-force model of the residents' homes: the store holds exactly the
/// embedded objects the model says, each with exactly one owner.
final class EmbeddedOwnershipRandomTests: EmbeddedTestCase {
    /// What one resident holds, by city name (every address and geo made here is unique by its city).
    private struct Expected: Equatable {
        var home: String?
        var homeHasGeo = false
        var pastHomes: [String] = []
    }

    func testRandomChangesKeepEveryEmbeddedObjectWithExactlyOneOwner() throws {
        var random = SeededGenerator(seed: 0x0E3B_0DED)
        var model: [Int: Expected] = [:]
        var serial = 0
        func city() -> String {
            serial += 1
            return "c\(serial)"
        }
        for round in 0..<120 {
            try db.write {
                for _ in 0..<Int.random(in: 1...5, using: &random) {
                    let ids = model.keys.sorted()
                    let id = ids.randomElement(using: &random)
                    let person = id.flatMap { db.object(ofType: Resident.self, forPrimaryKey: $0) }
                    switch Int.random(in: 0..<11, using: &random) {
                    case 0 where model.count < 10, 1 where model.isEmpty:
                        let newID = (ids.last ?? 0) + 1
                        let home = Bool.random(using: &random) ? city() : nil
                        let past = (0..<Int.random(in: 0...2, using: &random)).map { _ in city() }
                        db.add(Resident(
                            id: newID, name: "r", home: home.map { Address(street: "s", city: $0) },
                            pastHomes: past.map { Address(street: "s", city: $0) }))
                        model[newID] = Expected(home: home, pastHomes: past)
                    case 1, 2:
                        guard let id, let person else { continue }
                        let home = Bool.random(using: &random) ? city() : nil
                        let withGeo = home != nil && Bool.random(using: &random)
                        person.home = home.map { Address(street: "s", city: $0, geo: withGeo ? Geo(lat: 1, lon: 1) : nil) }
                        model[id]?.home = home
                        model[id]?.homeHasGeo = withGeo
                    case 3:
                        guard let id, let person, model[id]?.home != nil else { continue }
                        person.home?.geo = Bool.random(using: &random) ? Geo(lat: 2, lon: 2) : nil
                        model[id]?.homeHasGeo = person.home?.geo != nil
                    case 4:
                        guard let id, let person else { continue }
                        let added = city()
                        let index = Int.random(in: 0...person.pastHomes.count, using: &random)
                        person.pastHomes.insert(Address(street: "s", city: added), at: index)
                        model[id]?.pastHomes.insert(added, at: index)
                    case 5:
                        guard let id, let person, !person.pastHomes.isEmpty else { continue }
                        let index = Int.random(in: 0..<person.pastHomes.count, using: &random)
                        person.pastHomes.remove(at: index)
                        model[id]?.pastHomes.remove(at: index)
                    case 6:
                        guard let id, let person, !person.pastHomes.isEmpty else { continue }
                        let index = Int.random(in: 0..<person.pastHomes.count, using: &random)
                        let replaced = city()
                        person.pastHomes[index] = Address(street: "s", city: replaced)
                        model[id]?.pastHomes[index] = replaced
                    case 7:
                        guard let id else { continue }
                        let home = city()
                        let past = [city()]
                        db.add(Resident(
                            id: id, name: "again", home: Address(street: "s", city: home),
                            pastHomes: [Address(street: "s", city: past[0])]), update: .modified)
                        model[id] = Expected(home: home, pastHomes: past)
                    case 8:
                        guard let id else { continue }
                        let home = city()
                        db.create(Resident.self, value: ["id": id, "home": ["street": "s", "city": home]], update: .modified)
                        model[id]?.home = home
                        model[id]?.homeHasGeo = false
                    case 9:
                        guard let id, let person else { continue }
                        db.delete(person)
                        model[id] = nil
                    default:
                        guard let person, person.pastHomes.count > 1, Bool.random(using: &random) else { continue }
                        person.pastHomes.move(from: 0, to: person.pastHomes.count - 1)
                        if let id, var expected = model[id] {
                            expected.pastHomes.append(expected.pastHomes.removeFirst())
                            model[id] = expected
                        }
                    }
                }
            }
            // A theft is refused and rolls its whole write back.
            if let thief = model.keys.randomElement(using: &random), let victim = model.first(where: { $0.value.home != nil })?.key,
                thief != victim, Int.random(in: 0..<4, using: &random) == 0
            {
                let stolen = db.object(ofType: Resident.self, forPrimaryKey: victim)?.home
                XCTAssertThrowsError(try db.write {
                    db.object(ofType: Resident.self, forPrimaryKey: thief)?.pastHomes.append(stolen!)
                })
            }
            try check(model, round: round)
        }
    }

    private func check(_ model: [Int: Expected], round: Int) throws {
        var actual: [Int: Expected] = [:]
        for person in db.objects(Resident.self) {
            actual[person.id] = Expected(
                home: person.home?.city, homeHasGeo: person.home?.geo != nil, pastHomes: person.pastHomes.map(\.city))
        }
        XCTAssertEqual(actual, model, "round \(round)")
        let addresses = model.values.reduce(0) { $0 + ($1.home == nil ? 0 : 1) + $1.pastHomes.count }
        XCTAssertEqual(try count("Address"), addresses, "round \(round): an address without an owner was kept")
        XCTAssertEqual(try count("Geo"), model.values.filter(\.homeHasGeo).count, "round \(round)")
        XCTAssertTrue(try owners("Address").values.allSatisfy { $0 == 1 }, "round \(round)")
        XCTAssertTrue(try owners("Geo").values.allSatisfy { $0 == 1 }, "round \(round)")
    }
}

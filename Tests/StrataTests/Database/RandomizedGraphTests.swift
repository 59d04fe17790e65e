import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Random changes to people, dogs, their lists and links, applied to the database and to a plain model, compared
/// after every write, cancel and reopen: lists keep order, links and linking objects stay exact through deletes.
final class RandomizedGraphTests: DatabaseTestCase {
    /// The plain model: people by id, dogs by name.
    private struct Model {
        var people: [Int: (name: String, dogs: [String], favourite: String?)] = [:]
        var dogs: Set<String> = []

        mutating func deleteDog(_ dog: String) {
            dogs.remove(dog)
            for id in people.keys {
                people[id]?.dogs.removeAll { $0 == dog }
                if people[id]?.favourite == dog { people[id]?.favourite = nil }
            }
        }
    }

    private var longTests: Bool { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] != nil }

    func testRandomGraphMatchesAPlainModel() throws {
        try run(rounds: longTests ? 5000 : 300, seed: 20_261_122)
    }

    /// The same on an encrypted file: encryption sits under the object layer and changes none of its answers.
    func testRandomGraphOnAnEncryptedFileMatchesAPlainModel() throws {
        configuration.encryptionKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 89 &+ 41) })
        try run(rounds: longTests ? 2000 : 150, seed: 20_261_123)
        let db = try openDatabase()
        XCTAssertEqual(try db.verify().objects, db.objects(Person.self).count + db.objects(Dog.self).count)
    }

    private func run(rounds: Int, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var model = Model()
        var db = try openDatabase()
        var nextPerson = 0
        var nextDog = 0
        for round in 0..<rounds {
            var changed = model
            let cancel = random.next() % 10 == 0
            db.beginWrite()
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let people = changed.people.keys.sorted()
                let dogs = changed.dogs.sorted()
                switch random.next() % 8 {
                case 0:
                    db.add(Person(id: nextPerson, name: "p\(nextPerson)"))
                    changed.people[nextPerson] = ("p\(nextPerson)", [], nil)
                    nextPerson += 1
                case 1:
                    db.add(Dog(name: "d\(nextDog)"))
                    changed.dogs.insert("d\(nextDog)")
                    nextDog += 1
                case 2 where !people.isEmpty && !dogs.isEmpty:
                    let id = people[Int(random.next() % UInt64(people.count))]
                    let dog = dogs[Int(random.next() % UInt64(dogs.count))]
                    let list = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: id)).dogs
                    let at = Int(random.next() % UInt64(list.count + 1))
                    list.insert(try dogNamed(dog, in: db), at: at)
                    changed.people[id]?.dogs.insert(dog, at: at)
                case 3 where !people.isEmpty:
                    let id = people[Int(random.next() % UInt64(people.count))]
                    let list = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: id)).dogs
                    guard list.count > 0 else { break }
                    let at = Int(random.next() % UInt64(list.count))
                    list.remove(at: at)
                    changed.people[id]?.dogs.remove(at: at)
                case 4 where !people.isEmpty:
                    let id = people[Int(random.next() % UInt64(people.count))]
                    let list = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: id)).dogs
                    guard list.count > 1 else { break }
                    let from = Int(random.next() % UInt64(list.count)), to = Int(random.next() % UInt64(list.count))
                    list.move(from: from, to: to)
                    if var entry = changed.people[id] {
                        entry.dogs.insert(entry.dogs.remove(at: from), at: to)
                        changed.people[id] = entry
                    }
                case 5 where !people.isEmpty:
                    let id = people[Int(random.next() % UInt64(people.count))]
                    let person = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: id))
                    if dogs.isEmpty || random.next() % 3 == 0 {
                        person.favourite = nil
                        changed.people[id]?.favourite = nil
                    } else {
                        let dog = dogs[Int(random.next() % UInt64(dogs.count))]
                        person.favourite = try dogNamed(dog, in: db)
                        changed.people[id]?.favourite = dog
                    }
                case 6 where !dogs.isEmpty:
                    let dog = dogs[Int(random.next() % UInt64(dogs.count))]
                    db.delete(try dogNamed(dog, in: db))
                    changed.deleteDog(dog)
                case 7 where !people.isEmpty:
                    let id = people[Int(random.next() % UInt64(people.count))]
                    db.delete(try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: id)))
                    changed.people[id] = nil
                default:
                    break
                }
            }
            if cancel {
                db.cancelWrite()
            } else {
                try db.commitWrite()
                model = changed
            }
            if round % 50 == 49 { db = try openDatabase() }
            try assertMatches(model, db, round: round)
        }
    }

    private func dogNamed(_ name: String, in db: Database) throws -> Dog {
        try XCTUnwrap(db.objects(Dog.self).first { $0.name == name }, "no dog \(name)")
    }

    private func assertMatches(_ model: Model, _ db: Database, round: Int) throws {
        let people = db.objects(Person.self)
        XCTAssertEqual(Set(people.map(\.id)), Set(model.people.keys), "round \(round)")
        XCTAssertEqual(Set(db.objects(Dog.self).map(\.name)), model.dogs, "round \(round)")
        for person in people {
            let expected = try XCTUnwrap(model.people[person.id])
            XCTAssertEqual(person.dogs.map(\.name), expected.dogs, "round \(round): dogs of \(person.id)")
            XCTAssertEqual(person.favourite?.name, expected.favourite, "round \(round): favourite of \(person.id)")
        }
        for dog in db.objects(Dog.self) {
            let owners = model.people.filter { $0.value.dogs.contains(dog.name) }.map(\.key)
            let fans = model.people.filter { $0.value.favourite == dog.name }.map(\.key)
            XCTAssertEqual(Set(dog.owners.map(\.id)), Set(owners), "round \(round): owners of \(dog.name)")
            XCTAssertEqual(dog.owners.count, owners.count, "round \(round): owners counted once each")
            XCTAssertEqual(Set(dog.fans.map(\.id)), Set(fans), "round \(round): fans of \(dog.name)")
        }
    }
}


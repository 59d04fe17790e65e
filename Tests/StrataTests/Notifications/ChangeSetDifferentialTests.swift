import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Random commits on random people and dogs; after each delivery, every observed collection's change set,
/// applied to its previous contents, must give its new contents (see `ChangeSetChecker`). Rounds make one to
/// three commits before waiting, so coalesced deliveries are covered. `STRATA_LONG_TESTS=1` runs ten times more.
final class ChangeSetDifferentialTests: NotificationTestCase {
    private var rounds: Int { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 4_000 : 400 }

    func testRandomCommitsGiveChangeSetsThatRebuildEveryCollection() throws {
        try runRounds(seed: 7)
    }

    func testRandomCommitsWithAnotherSeed() throws {
        try runRounds(seed: 2026)
    }

    // MARK: - Signatures (what a default observer watches)

    private static func signature(of dog: Dog) -> String { "\(dog.name)/\(dog.age)" }

    private static func signature(of person: Person) -> String {
        let favourite = person.favourite.map { "\(storeKey($0)):\(signature(of: $0))" } ?? "-"
        let dogs = person.dogs.map { "\(storeKey($0)):\(signature(of: $0))" }.joined(separator: ",")
        return "\(person.name)|\(person.age)|\(person.email)|\(person.nickname ?? "-")|\(person.tags.joined(separator: ","))"
            + "|\(favourite)|[\(dogs)]"
    }

    // MARK: - The rounds

    private func runRounds(seed: UInt64) throws {
        let db = try openDatabase()
        var random = SeededGenerator(seed: seed)
        // Person 0 (whose dogs are observed) and dog 0 (whose owners are) are never deleted.
        try db.write {
            let first = Dog(name: "d0", age: 3)
            db.add(first)
            db.add(Person(id: 0, name: "p0", age: 40))
            for n in 1..<12 { db.add(Person(id: n, name: "p\(Int.random(in: 0..<50, using: &random))", age: Int.random(in: 0..<60, using: &random))) }
            for n in 1..<6 { db.add(Dog(name: "d\(n)", age: n)) }
        }
        var checkers: [ChangeSetChecker] = []
        var tokens: [NotificationToken] = []
        func checker(_ name: String) -> ChangeSetChecker {
            let made = ChangeSetChecker(name: name)
            checkers.append(made)
            return made
        }
        let ownOnly = { (person: Person) in "\(person.name)|\(person.age)" }
        try onQueue {
            let people = observerDatabase.objects(Person.self)
            tokens.append(try people.filter("age > 30").observe(checker("filtered").feedResults(Self.signature)))
            tokens.append(people.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), "name"])
                .observe(checker("sorted").feedResults(Self.signature)))
            tokens.append(try people.filter("age >= 20").sorted(byKeyPath: "name")
                .observe(keyPaths: ["name", "age"], checker("filtered+sorted, own key paths").feedResults(ownOnly)))
            tokens.append(people.sorted(byKeyPath: "age").observe(keyPaths: ["name", "age"], checker("sorted, own key paths").feedResults(ownOnly)))
            tokens.append(people.sorted(byKeyPath: "favourite.name").observe(checker("sorted through a link").feedResults(Self.signature)))
            tokens.append(people.observe(checker("all").feedResults(Self.signature)))
            // Equal queries share one computed change per delivery; each must still get a right one.
            tokens.append(people.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), "name"])
                .observe(checker("sorted, a second observer").feedResults(Self.signature)))
            tokens.append(people.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), "name"])
                .observe(keyPaths: ["name", "age"], checker("sorted, own key paths, same query").feedResults(ownOnly)))
            let owner = try XCTUnwrap(observerDatabase.object(ofType: Person.self, forPrimaryKey: 0))
            tokens.append(owner.dogs.observe(checker("list").feedList(Self.signature)))
            let dog = try XCTUnwrap(observerDatabase.objects(Dog.self).first { $0.name == "d0" })
            tokens.append(dog.owners.observe(checker("linking objects").feedLinkingObjects(Self.signature)))
        }
        startBarrier()
        waitOnQueue("initial deliveries") { checkers.allSatisfy(\.hasInitial) }

        var nextId = 100
        for _ in 0..<rounds {
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                try db.write { randomChange(in: db, nextId: &nextId, random: &random) }
            }
            waitForDelivery(of: db.store.latestCommittedVersion)
        }
        let failures = onQueue { checkers.flatMap(\.failures) }
        XCTAssertEqual(failures, [], failures.prefix(10).joined(separator: "\n"))
        let updates = onQueue { checkers.map { "\($0.name): \($0.updates)" } }
        // Each collection must actually have changed many times, or the test proves nothing.
        for checker in checkers { XCTAssertGreaterThan(onQueue { checker.updates }, rounds / 20, "\(updates)") }
        withExtendedLifetime(tokens) {}
    }

    /// One random change: add, delete or edit a person or a dog, relink, or edit person 0's list of dogs.
    private func randomChange(in db: Database, nextId: inout Int, random: inout SeededGenerator) {
        let people = Array(db.objects(Person.self))
        let dogs = Array(db.objects(Dog.self))
        let person = people.randomElement(using: &random)
        let dog = dogs.randomElement(using: &random)
        switch Int.random(in: 0..<12, using: &random) {
        case 0:
            db.add(Person(id: nextId, name: "p\(Int.random(in: 0..<50, using: &random))", age: Int.random(in: 0..<60, using: &random)))
            nextId += 1
        case 1:
            if let person, person.id != 0 { db.delete(person) }
        case 2, 3:
            person?.age = Int.random(in: 0..<60, using: &random)
        case 4:
            person?.name = "p\(Int.random(in: 0..<50, using: &random))"
        case 5:
            person?.favourite = Bool.random(using: &random) ? dog : nil
        case 6:
            db.add(Dog(name: "d\(Int.random(in: 0..<50, using: &random))", age: Int.random(in: 0..<15, using: &random)))
        case 7:
            if let dog, dog.name != "d0", dogs.count > 3 { db.delete(dog) }
        case 8:
            if let dog { dog.age = Int.random(in: 0..<15, using: &random) }
        case 9:
            if let dog, dog.name != "d0" { dog.name = "d\(Int.random(in: 1..<50, using: &random))" }
        default:
            guard let owner = db.object(ofType: Person.self, forPrimaryKey: 0) else { return }
            let list = owner.dogs
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where list.count > 1:
                list.move(from: Int.random(in: 0..<list.count, using: &random), to: Int.random(in: 0..<list.count, using: &random))
            case 1 where !list.isEmpty:
                list.remove(at: Int.random(in: 0..<list.count, using: &random))
            default:
                // Duplicates allowed: a list may hold the same dog twice.
                if let dog, list.count < 8 { list.insert(dog, at: Int.random(in: 0...list.count, using: &random)) }
            }
            if let other = people.randomElement(using: &random), let dog, Bool.random(using: &random), other.dogs.count < 4 {
                other.dogs.append(dog)
            }
        }
    }
}

private extension ChangeSetChecker {
    func feedResults<Element: Object>(_ signature: @escaping (Element) -> String) -> (CollectionChange<Results<Element>>) -> Void {
        feedAny(signature)
    }

    func feedList<Element: Object>(_ signature: @escaping (Element) -> String) -> (CollectionChange<List<Element>>) -> Void {
        feedAny(signature)
    }

    func feedLinkingObjects<Element: Object>(
        _ signature: @escaping (Element) -> String
    ) -> (CollectionChange<LinkingObjects<Element>>) -> Void {
        feedAny(signature)
    }

    private func feedAny<C: Collection>(_ signature: @escaping (C.Element) -> String) -> (CollectionChange<C>) -> Void
    where C.Element: Object {
        { change in
            switch change {
            case .initial(let collection): self.initial(Self.contents(collection, signature))
            case .update(let collection, let deletions, let insertions, let modifications):
                self.update(
                    Self.contents(collection, signature), deletions: deletions, insertions: insertions,
                    modifications: modifications)
            case .error(let error): self.error(error)
            }
        }
    }

    static func contents<C: Collection>(_ collection: C, _ signature: (C.Element) -> String) -> Contents
    where C.Element: Object {
        var ids: [Int64] = []
        var signatures: [Int64: String] = [:]
        for object in collection {
            ids.append(storeKey(object))
            signatures[storeKey(object)] = signature(object)
        }
        return Contents(ids: ids, signatures: signatures)
    }
}

import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Differential tests of `MutableSet` and `Map` change sets: random commits on a writer database, observers on a
/// database confined to a private queue; each change set applied to the previous contents must give the new
/// contents, and modifications must be exactly what stayed and changed.
final class SetAndMapNotificationTests: PantryTestCase {
    private var queue: DispatchQueue!
    private var observerDatabase: Database!
    private let lock = NSLock()
    private var seenVersion: UInt64 = 0
    private var failures: [String] = []
    private var updates = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        queue = DispatchQueue(label: "set and map notifications \(name)")
        let configuration = self.configuration!
        let queue = self.queue!
        observerDatabase = try queue.sync { try Database(configuration: configuration, queue: queue) }
    }

    override func tearDown() {
        queue.sync { observerDatabase = nil }
        super.tearDown()
    }

    private func fail(_ message: String) { lock.withLock { failures.append(message) } }

    private func waitForDelivery(of version: UInt64) {
        let deadline = Date(timeIntervalSinceNow: 20)
        while lock.withLock({ seenVersion }) < version {
            guard Date() < deadline else { return XCTFail("no delivery of version \(version) within 20 s") }
            usleep(500)
        }
        queue.sync {}
    }

    /// One dish as a set of dishes is compared: its name is its identity, its price what a modification changes.
    private static func describe(_ dish: Dish?) -> String { dish.map { "\($0.name)=\($0.price)" } ?? "nil" }

    /// One mixed value as the `set<any>` and `map<any?>` are compared: a dish by its name, others by their value.
    private static func describe(_ value: AnyValue) -> String {
        if case .object(let object) = value { return (object as? Dish).map { "dish \($0.name)" } ?? "object" }
        return "\(value)"
    }

    func testRandomCommitsGiveChangeSetsThatRebuildSetsAndMaps() throws {
        try run(seed: 3, commits: 120)
    }

    func testRandomCommitsWithAnotherSeed() throws {
        try run(seed: 11, commits: 80)
    }

    private func run(seed: UInt64, commits: Int) throws {
        var random = SeededGenerator(seed: seed)
        let db = try openDatabase()
        let names = ["a", "b", "c", "d", "e", "f", "g"]
        try db.write {
            db.add(Cook(id: 1, name: "Bea"))
            for name in names { db.add(Dish(name: name, price: 1)) }
        }
        var tokens: [NotificationToken] = []
        var previousNicknames: [String]?
        var previousDishes: [String]?
        var previousScores: [String: Int]?
        var previousSignature: [String: String]?
        var previousCharms: [String]?
        var previousExtras: [String: String]?
        queue.sync {
            let cook = observerDatabase.object(ofType: Cook.self, forPrimaryKey: 1)!
            tokens.append(cook.nicknames.observe { change in
                switch change {
                case .initial(let set): previousNicknames = Array(set)
                case .update(let set, let deletions, let insertions, let modifications):
                    let new = Array(set)
                    var applied = previousNicknames ?? []
                    for index in deletions.reversed() { applied.remove(at: index) }
                    for index in insertions { applied.insert(new[index], at: index) }
                    if applied != new { self.fail("nicknames: \(previousNicknames ?? []) -\(deletions) +\(insertions) gives \(applied), not \(new)") }
                    if !modifications.isEmpty { self.fail("nicknames: strings cannot be modified in place: \(modifications)") }
                    if deletions.isEmpty && insertions.isEmpty { self.fail("nicknames: an empty update") }
                    previousNicknames = new
                    self.lock.withLock { self.updates += 1 }
                case .error(let error): self.fail("nicknames: \(error)")
                }
            })
            tokens.append(cook.dishes.observe { change in
                switch change {
                case .initial(let set): previousDishes = set.map(Self.describe)
                case .update(let set, let deletions, let insertions, let modifications):
                    let new = set.map(Self.describe)
                    let old = previousDishes ?? []
                    var applied = old.map { $0.prefix { $0 != "=" } }
                    for index in deletions.reversed() { applied.remove(at: index) }
                    for index in insertions { applied.insert(new[index].prefix { $0 != "=" }, at: index) }
                    if applied != new.map({ $0.prefix { $0 != "=" } }) {
                        self.fail("dishes: \(old) -\(deletions) +\(insertions) gives \(applied), not \(new)")
                    }
                    let inserted = Set(insertions)
                    let changed = Set(new.indices.filter { !inserted.contains($0) && !old.contains(new[$0]) })
                    if changed != Set(modifications) { self.fail("dishes: modifications \(modifications), changed \(changed.sorted()) in \(old) → \(new)") }
                    previousDishes = new
                case .error(let error): self.fail("dishes: \(error)")
                }
            })
            tokens.append(cook.scores.observe { change in
                switch change {
                case .initial(let map): previousScores = Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) })
                case .update(let map, let deletions, let insertions, let modifications):
                    let new = Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) })
                    let old = previousScores ?? [:]
                    var applied = old
                    for key in deletions { applied[key] = nil }
                    for key in insertions + modifications { applied[key] = new[key] }
                    if applied != new { self.fail("scores: \(old) -\(deletions) +\(insertions) ~\(modifications) gives \(applied), not \(new)") }
                    if Set(insertions) != Set(new.keys).subtracting(old.keys) { self.fail("scores: insertions \(insertions)") }
                    let changed = Set(new.keys.filter { old[$0] != nil && old[$0] != new[$0] })
                    if changed != Set(modifications) { self.fail("scores: modifications \(modifications), changed \(changed)") }
                    if deletions != deletions.sorted(by: MapKeyOrder.precedes) { self.fail("scores: deletions not in key order") }
                    previousScores = new
                case .error(let error): self.fail("scores: \(error)")
                }
            })
            tokens.append(cook.signature.observe { change in
                switch change {
                case .initial(let map): previousSignature = Dictionary(uniqueKeysWithValues: map.map { ($0.key, Self.describe($0.value)) })
                case .update(let map, let deletions, let insertions, let modifications):
                    let new = Dictionary(uniqueKeysWithValues: map.map { ($0.key, Self.describe($0.value)) })
                    let old = previousSignature ?? [:]
                    var applied = old
                    for key in deletions { applied[key] = nil }
                    for key in insertions + modifications { applied[key] = new[key] }
                    if applied != new { self.fail("signature: \(old) → \(new) by -\(deletions) +\(insertions) ~\(modifications)") }
                    let changed = Set(new.keys.filter { old[$0] != nil && old[$0] != new[$0] })
                    if changed != Set(modifications) { self.fail("signature: modifications \(modifications), changed \(changed)") }
                    previousSignature = new
                case .error(let error): self.fail("signature: \(error)")
                }
            })
            tokens.append(cook.charms.observe { change in
                switch change {
                case .initial(let set): previousCharms = set.map(Self.describe)
                case .update(let set, let deletions, let insertions, let modifications):
                    let new = set.map(Self.describe)
                    var applied = previousCharms ?? []
                    for index in deletions.reversed() { applied.remove(at: index) }
                    for index in insertions { applied.insert(new[index], at: index) }
                    if applied != new {
                        let old = previousCharms ?? []
                        self.fail("charms: \(old) -\(deletions) +\(insertions) gives \(applied), not \(new)")
                    }
                    if modifications.contains(where: { $0 >= new.count || insertions.contains($0) }) {
                        self.fail("charms: modifications \(modifications) outside what stayed in \(new)")
                    }
                    previousCharms = new
                case .error(let error): self.fail("charms: \(error)")
                }
            })
            tokens.append(cook.extras.observe { change in
                switch change {
                case .initial(let map):
                    previousExtras = Dictionary(uniqueKeysWithValues: map.map { ($0.key, Self.describe($0.value)) })
                case .update(let map, let deletions, let insertions, let modifications):
                    let new = Dictionary(uniqueKeysWithValues: map.map { ($0.key, Self.describe($0.value)) })
                    let old = previousExtras ?? [:]
                    var applied = old
                    for key in deletions { applied[key] = nil }
                    for key in insertions + modifications { applied[key] = new[key] }
                    if applied != new {
                        self.fail("extras: \(old) → \(new) by -\(deletions) +\(insertions) ~\(modifications)")
                    }
                    if Set(insertions) != Set(new.keys).subtracting(old.keys) {
                        self.fail("extras: insertions \(insertions)")
                    }
                    let changed = Set(new.keys.filter { old[$0] != nil && old[$0] != new[$0] })
                    if changed != Set(modifications) {
                        self.fail("extras: modifications \(modifications), changed \(changed)")
                    }
                    previousExtras = new
                case .error(let error): self.fail("extras: \(error)")
                }
            })
            tokens.append(observerDatabase.observe { [weak self] _, database in
                guard let self else { return }
                let version = database.version
                self.lock.withLock { self.seenVersion = max(self.seenVersion, version) }
            })
        }
        // The initial calls arrive asynchronously; the database observer sees only later commits.
        let deadline = Date(timeIntervalSinceNow: 20)
        while queue.sync(execute: { previousNicknames == nil || previousDishes == nil || previousScores == nil
            || previousSignature == nil || previousCharms == nil || previousExtras == nil }) {
            guard Date() < deadline else { return XCTFail("no initial call within 20 s") }
            usleep(500)
        }
        let cook = try XCTUnwrap(db.object(ofType: Cook.self, forPrimaryKey: 1))
        for commit in 0..<commits {
            try db.write {
                // Every commit changes something (the database observer that paces the test sees only those); the
                // owner's name is no element, so its change alone notifies none of the collections.
                cook.name = "Bea \(commit)"
                for _ in 0..<(1 + random.below(3)) {
                    let dishes = Array(db.objects(Dish.self))
                    let dish = dishes.isEmpty ? nil : dishes[random.below(dishes.count)]
                    let key = ["x", "y", "z", "Z", "é"][random.below(5)]
                    let charms: [AnyValue] = [.int(1), .double(1), .string("1"), .none, .decimal(2), .bool(true)]
                    let charm = dish.map { AnyValue.object($0) } ?? charms[random.below(charms.count)]
                    switch random.below(13) {
                    case 0: cook.nicknames.insert(names[random.below(names.count)])
                    case 1: cook.nicknames.remove(names[random.below(names.count)])
                    case 2: if let dish { cook.dishes.insert(dish) }
                    case 3: if let dish { cook.dishes.remove(dish) }
                    case 4: cook.scores[key] = random.below(3)
                    case 5: cook.scores[key] = nil
                    case 6: cook.signature[key] = .some(random.below(4) == 0 ? nil : dish)
                    case 7: dish?.price = Double(random.below(4))
                    case 9: cook.charms.insert(random.below(3) == 0 ? charm : charms[random.below(charms.count)])
                    case 10: cook.charms.remove(random.below(3) == 0 ? charm : charms[random.below(charms.count)])
                    case 11: cook.extras[key] = charms[random.below(charms.count)]
                    case 12: cook.extras[key] = nil
                    default:
                        if let dish, random.below(3) == 0 {
                            let name = dish.name
                            db.delete(dish)
                            db.add(Dish(name: name, price: 1))
                        } else {
                            cook.signature[key] = nil
                        }
                    }
                }
            }
            waitForDelivery(of: db.version)
        }
        queue.sync {
            let observed = observerDatabase.object(ofType: Cook.self, forPrimaryKey: 1)!
            XCTAssertEqual(previousNicknames, Array(observed.nicknames))
            XCTAssertEqual(previousCharms, observed.charms.map(Self.describe))
        }
        XCTAssertEqual(lock.withLock { failures }, [])
        XCTAssertGreaterThan(lock.withLock { updates }, commits / 10, "the set changed in some commits")
        queue.sync { tokens.forEach { $0.invalidate() } }
    }
}

import Foundation

@testable import Strata

/// The app's custom step of `Shop` version 3: `displayName` is the old name, the nickname in parentheses and
/// the number of purchases, read through the typed view of version 2 (including the removed `name`).
struct TestShopMigrations: ShopMigrations {
    /// Names for which the step throws, to test that a failure leaves the file as it was.
    var failingNames: Set<String> = []
    /// Whether the step also reverses the new object's purchases (moving, removing and inserting through the live
    /// list of a migration's object) and sets `level` to 100 plus the scores of the old purchases (lists of
    /// primitives read through the typed view of version 2).
    var reversesPurchases = false
    /// Whether the step also appends an unmanaged purchase to the new object's list, which a custom step cannot do.
    var appendsUnmanagedPurchase = false

    struct Refused: Error, Equatable {
        let name: String
    }

    func migratePatron(from old: Shop.V2.Patron, to new: Patron) throws {
        if failingNames.contains(old.name) { throw Refused(name: old.name) }
        let total = old.purchases.reduce(0) { $0 + $1.total }
        new.displayName = "\(old.name) (\(old.nickname ?? "-"))"
        // Reads back what was just written: batched writes must be visible to the code that made them.
        new.displayName += " ×\(old.purchases.count) \(total)"
        if reversesPurchases {
            let purchases = new.purchases
            purchases.move(from: purchases.count - 1, to: 0)
            let reversed = Array(purchases)
            purchases.removeAll()
            purchases.append(contentsOf: reversed.dropFirst())
            purchases.insert(reversed[0], at: 0)
            new.level = 100 + old.purchases.reduce(0) { $0 + $1.scores.reduce(0, +) }
        }
        if appendsUnmanagedPurchase { new.purchases.append(Purchase(ref: 99)) }
    }
}

enum ShopConfiguration {
    /// A configuration of `Shop` over `path`, with the test's custom step.
    static func make(path: String, migrations: TestShopMigrations = TestShopMigrations()) -> Configuration {
        return Configuration(schema: Shop.self, migrations: migrations).scratch(at: URL(fileURLWithPath: path))
    }
}

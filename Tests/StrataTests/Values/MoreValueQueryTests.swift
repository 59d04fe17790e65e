import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// Queries over `decimal`, `objectId` and `any` properties: comparisons with literals (`oid(…)`, `decimal(…)`,
/// numbers) and arguments, numbers compared across kinds in mixed values, string operators on mixed strings,
/// sorting, typed `where {}` members, and the planner's use of their indexes.
final class MoreValueQueryTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var db: Database!
    private var ids: [ObjectId] = []

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let configuration = Configuration(schema: Wallet.self)
            .scratch(at: directory.url.appendingPathComponent("wallet.strata"))
        db = try Database(configuration: configuration)
        let tags: [AnyValue] = [.int(1), .double(1.5), .decimal(Decimal(string: "2")!), .string("gold"), .none, .bool(true),
                                .string("silver"), .double(2)]
        let balances = ["10.25", "-3", "0.1", "2.50", "100", "10.2", "0", "1e3"]
        for (position, (tag, balance)) in zip(tags, balances).enumerated() {
            let id = try ObjectId(string: String(repeating: "0", count: 22) + String(format: "%02x", position))
            ids.append(id)
            try db.write {
                db.add(Account(id: id, owner: "owner \(position)", balance: Decimal(string: balance)!, ref: position % 2 == 0 ? id : nil,
                               tag: tag))
            }
        }
    }

    override func tearDown() {
        db = nil
        directory = nil
    }

    private func owners(_ results: Results<Account>) -> [String] { results.map(\.owner) }

    private func owners(_ predicate: String, _ arguments: Any...) throws -> [String] {
        owners(try db.objects(Account.self).filter(predicate, arguments: arguments).sorted(byKeyPath: "owner"))
    }

    func testDecimalComparisonsAreByValue() throws {
        XCTAssertEqual(try owners("balance == 10.25"), ["owner 0"])
        XCTAssertEqual(try owners("balance == 2.5"), ["owner 3"], "2.50 is 2.5")
        XCTAssertEqual(try owners("balance == decimal(2.500)"), ["owner 3"])
        XCTAssertEqual(try owners("balance > 10.2"), ["owner 0", "owner 4", "owner 7"])
        XCTAssertEqual(try owners("balance < 0"), ["owner 1"])
        XCTAssertEqual(try owners("balance BETWEEN {0, 10.2}"), ["owner 2", "owner 3", "owner 5", "owner 6"])
        XCTAssertEqual(try owners("balance IN {100, 0.1}"), ["owner 2", "owner 4"])
        XCTAssertEqual(try owners("balance >= %@", Decimal(string: "100")!), ["owner 4", "owner 7"])
        XCTAssertEqual(try owners("balance == '10.25'"), ["owner 0"])
        let sorted = db.objects(Account.self).sorted(byKeyPath: "balance").map(\.balance)
        XCTAssertEqual(sorted, sorted.sorted(), "sorted by value, not text")
        XCTAssertThrowsError(try db.objects(Account.self).filter("balance == 'ten'"))
        XCTAssertThrowsError(try db.objects(Account.self).filter("balance == decimal(ten)"))
    }

    func testObjectIdComparisonsAndLiterals() throws {
        XCTAssertEqual(try owners("id == oid(\(ids[3].stringValue))"), ["owner 3"])
        XCTAssertEqual(try owners("id == %@", ids[5]), ["owner 5"])
        XCTAssertEqual(try owners("id == '\(ids[5].stringValue)'"), ["owner 5"])
        XCTAssertEqual(try owners("id > %@", ids[5]), ["owner 6", "owner 7"])
        XCTAssertEqual(try owners("id BETWEEN {%@, %@}", ids[1], ids[2]), ["owner 1", "owner 2"])
        XCTAssertEqual(try owners("ref == nil"), ["owner 1", "owner 3", "owner 5", "owner 7"])
        XCTAssertEqual(try owners("ref IN %@", [ids[0], ids[1], ids[2]]), ["owner 0", "owner 2"])
        XCTAssertThrowsError(try db.objects(Account.self).filter("id == oid(12)"))
        XCTAssertEqual(db.objects(Account.self).sorted(byKeyPath: "id", ascending: false).map(\.id), ids.reversed())
    }

    func testMixedValuesCompareNumbersAcrossKinds() throws {
        XCTAssertEqual(try owners("tag == 1"), ["owner 0"])
        XCTAssertEqual(try owners("tag == 2"), ["owner 2", "owner 7"], "decimal 2 and double 2.0 equal int 2")
        XCTAssertEqual(try owners("tag == decimal(1.5)"), ["owner 1"])
        XCTAssertEqual(try owners("tag > 1"), ["owner 1", "owner 2", "owner 7"])
        XCTAssertEqual(try owners("tag IN {1.5, 'gold'}"), ["owner 1", "owner 3"])
        XCTAssertEqual(try owners("tag == nil"), ["owner 4"])
        XCTAssertEqual(try owners("tag == true"), ["owner 5"])
        XCTAssertEqual(try owners("tag == %@", AnyValue.string("silver")), ["owner 6"])
        XCTAssertEqual(try owners("tag BEGINSWITH 'g'"), ["owner 3"])
        XCTAssertEqual(try owners("tag CONTAINS[c] 'ILV'"), ["owner 6"])
        XCTAssertEqual(try owners("tag != 1 AND tag != nil AND tag != true"),
                       ["owner 1", "owner 2", "owner 3", "owner 6", "owner 7"])
    }

    func testMixedValuesCompareObjects() throws {
        let first = try XCTUnwrap(db.object(ofType: Account.self, forPrimaryKey: ids[0]))
        try db.write { db.add(Memo(text: "about the first", about: .object(first))) }
        try db.write { db.add(Memo(text: "about a number", about: .int(1))) }
        let memos = try db.objects(Memo.self).filter("about == %@", first)
        XCTAssertEqual(memos.map(\.text), ["about the first"])
        XCTAssertEqual(try db.objects(Memo.self).filter("about == 1").map(\.text), ["about a number"])
    }

    func testTypedWhereMembers() throws {
        let all = db.objects(Account.self)
        XCTAssertEqual(owners(try all.where { $0.balance > Decimal(100) }), ["owner 7"])
        XCTAssertEqual(owners(try all.where { $0.id == self.ids[2] }), ["owner 2"])
        XCTAssertEqual(owners(try all.where { $0.tag == AnyValue.string("gold") }), ["owner 3"])
        XCTAssertEqual(owners(try all.where { $0.balance.between(Decimal(0), Decimal(1)) }).sorted(), ["owner 2", "owner 6"])
    }

    func testDecimalAggregatesAreExact() throws {
        let all = db.objects(Account.self)
        // 10.25 - 3 + 0.1 + 2.5 + 100 + 10.2 + 0 + 1000
        XCTAssertEqual(all.sum(ofProperty: "balance") as Decimal, Decimal(string: "1120.05"))
        XCTAssertEqual(all.min(ofProperty: "balance") as Decimal?, -3)
        XCTAssertEqual(all.max(ofProperty: "balance") as Decimal?, 1000)
        XCTAssertEqual(try XCTUnwrap(all.average(ofProperty: "balance")), 140.00625, accuracy: 1e-9)
        let filtered = try all.filter("balance < 1")
        XCTAssertEqual(filtered.sum(ofProperty: "balance") as Decimal, Decimal(string: "-2.9"), "-3 + 0.1 + 0, not 0")
        XCTAssertEqual(filtered.sum(ofProperty: "balance") as Double, -2.9, accuracy: 1e-12)
    }

    func testThePlannerUsesTheIndexes() throws {
        let balance = try db.objects(Account.self).filter("balance == 10.25")
        XCTAssertTrue(balance.explain.hasPrefix("index Account.balance"), balance.explain)
        let range = try db.objects(Account.self).filter("balance > 10")
        XCTAssertTrue(range.explain.hasPrefix("index Account.balance"), range.explain)
        let ref = try db.objects(Account.self).filter("ref == %@", ids[2])
        XCTAssertTrue(ref.explain.hasPrefix("index Account.ref"), ref.explain)
        XCTAssertEqual(ref.map(\.owner), ["owner 2"])
        let primaryKey = try db.objects(Account.self).filter("id == %@", ids[4])
        XCTAssertTrue(primaryKey.explain.hasPrefix("index Account.id"), primaryKey.explain)
        let tag = try db.objects(Account.self).filter("tag == 2")
        XCTAssertTrue(tag.explain.hasPrefix("index Account.tag"), tag.explain)
        XCTAssertEqual(owners(tag).sorted(), ["owner 2", "owner 7"])
        let tagIn = try db.objects(Account.self).filter("tag IN {1, 'gold'}")
        XCTAssertTrue(tagIn.explain.hasPrefix("index Account.tag"), tagIn.explain)
        XCTAssertEqual(owners(tagIn).sorted(), ["owner 0", "owner 3"])
    }
}

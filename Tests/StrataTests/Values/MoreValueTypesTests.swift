import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// `decimal`, `objectId` and `any` properties through the object layer: unmanaged defaults, managed reads and
/// writes, lists, `create(_:value:update:)`, deletion of an `any` value's object, printing, reopening.
final class MoreValueTypesTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var configuration: Configuration!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = Configuration(schema: Wallet.self)
            .scratch(at: directory.url.appendingPathComponent("wallet.strata"))
    }

    override func tearDown() {
        directory = nil
    }

    private func open() throws -> Database { try Database(configuration: configuration) }

    func testUnmanagedDefaults() throws {
        let account = Account()
        XCTAssertEqual(account.balance, 0)
        XCTAssertEqual(account.rate, Decimal(string: "1.5"))
        XCTAssertNil(account.limit)
        XCTAssertNotEqual(account.id, ObjectId.zero, "default: auto generates one")
        XCTAssertLessThan(account.id, Account().id)
        XCTAssertEqual(account.tag, .none)
        XCTAssertEqual(Memo().about, .none)
    }

    func testManagedValuesRoundTripAndSurviveReopening() throws {
        let ref = ObjectId.generate()
        let id: ObjectId
        do {
            let db = try open()
            let account = Account(owner: "Ana", balance: Decimal(string: "10.25")!)
            id = account.id
            try db.write {
                db.add(account)
                account.limit = Decimal(string: "-0.001")
                account.ref = ref
                account.tag = .decimal(Decimal(string: "123456789012345678901234567890.12345678")!)
                account.extras.append(.int(3))
                account.extras.append(.string("three"))
                account.extras.append(.none)
                account.amounts.append(Decimal(string: "1e20")!)
                account.ids.append(ref)
            }
            XCTAssertEqual(account.balance, Decimal(string: "10.25"))
        }
        let db = try open()
        let account = try XCTUnwrap(db.object(ofType: Account.self, forPrimaryKey: id))
        XCTAssertEqual(account.owner, "Ana")
        XCTAssertEqual(account.balance, Decimal(string: "10.25"))
        XCTAssertEqual(account.limit, Decimal(string: "-0.001"))
        XCTAssertEqual(account.ref, ref)
        XCTAssertEqual(account.tag, .decimal(Decimal(string: "123456789012345678901234567890.12345678")!))
        XCTAssertEqual(Array(account.extras), [.int(3), .string("three"), .none])
        XCTAssertEqual(Array(account.amounts), [Decimal(string: "1e20")!])
        XCTAssertEqual(Array(account.ids), [ref])
        try db.verify()
    }

    func testAnyLinksToObjectsOfAnyModelAndTurnsNullWhenTheyAreDeleted() throws {
        let db = try open()
        let ana = Account(owner: "Ana")
        let memo = Memo(text: "hello", about: .object(ana))
        try db.write { db.add(memo) }
        XCTAssertTrue(ana.isManaged, "the unmanaged object in an any value is added with its holder")
        guard case .object(let linked) = memo.about else { return XCTFail("\(memo.about)") }
        XCTAssertTrue(linked.isSameObject(as: ana))
        XCTAssertEqual(memo.about, .object(ana))
        try db.write {
            ana.tag = .object(memo)
            ana.extras.append(.object(memo))
            ana.extras.append(.bool(true))
        }
        XCTAssertEqual((ana.tag.object as? Memo)?.text, "hello")
        try db.write { db.delete(memo) }
        XCTAssertEqual(ana.tag, .none)
        XCTAssertEqual(Array(ana.extras), [.none, .bool(true)])
        try db.verify()
    }

    func testCreateFromDictionariesFillsTheNewTypes() throws {
        let db = try open()
        let id = ObjectId.generate()
        let account = try db.writeReturning {
            db.create(Account.self, value: [
                "id": id.stringValue, "owner": "Bo", "balance": "12.50", "limit": 7, "ref": id, "tag": 4.5,
                "extras": [1, "two", AnyValue.decimal(3)], "amounts": [1, 2.5], "ids": [id],
            ])
        }
        XCTAssertEqual(account.id, id)
        XCTAssertEqual(account.balance, Decimal(string: "12.5"))
        XCTAssertEqual(account.limit, 7)
        XCTAssertEqual(account.ref, id)
        XCTAssertEqual(account.tag, .double(4.5))
        XCTAssertEqual(Array(account.extras), [.int(1), .string("two"), .decimal(3)])
        XCTAssertEqual(Array(account.amounts), [1, Decimal(string: "2.5")!])
        let memo = try db.writeReturning { db.create(Memo.self, value: ["text": "x", "about": account]) }
        XCTAssertEqual(memo.about, .object(account))
        let fresh = try db.writeReturning { db.create(Account.self, value: ["owner": "Cy"]) }
        XCTAssertNotEqual(fresh.id, ObjectId.zero, "an auto ObjectId is generated")
        XCTAssertEqual(fresh.rate, Decimal(string: "1.5"))
        XCTAssertThrowsError(try db.write { db.create(Account.self, value: ["owner": "Di", "balance": "ten"]) })
    }

    func testDescriptionShowsTheValues() throws {
        let db = try open()
        let id = try ObjectId(string: "507f1f77bcf86cd799439011")
        let account = Account(id: id, owner: "Ana", balance: Decimal(string: "10.25")!, tag: .string("vip"))
        try db.write { db.add(account) }
        let text = "\(account)"
        XCTAssertTrue(text.contains("id = 507f1f77bcf86cd799439011"), text)
        XCTAssertTrue(text.contains("balance = 10.25"), text)
        XCTAssertTrue(text.contains("tag = vip"), text)
    }
}

extension Database {
    /// Runs `body` in a write and returns what it returns.
    fileprivate func writeReturning<T>(_ body: () throws -> T) throws -> T {
        var result: T?
        try write { result = try body() }
        return result!
    }
}

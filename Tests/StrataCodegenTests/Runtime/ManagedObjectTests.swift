import Foundation
import XCTest
@_spi(StrataGenerated) import Strata

/// Generated classes made managed over a stand-in store reference: every access must go through the accessor.
final class ManagedObjectTests: XCTestCase {
    private func column(_ name: String, of type: Object.Type = Client.self) throws -> Int {
        try XCTUnwrap(type.modelDescription.column(named: name), "\(type) has no column \(name)")
    }

    func testManagedPropertiesReadTheStore() throws {
        let accessor = DictionaryAccessor()
        accessor.values[try column("id")] = .int(42)
        accessor.values[try column("fullName")] = .string("Stored")
        accessor.values[try column("shoeSize")] = .int(41)
        accessor.values[try column("tier")] = .string("basic")
        accessor.values[try column("birthday")] = .null
        let client = Client(managedBy: accessor)
        XCTAssertTrue(client.isManaged)
        XCTAssertEqual(client.id, 42)
        XCTAssertEqual(client.fullName, "Stored")
        XCTAssertEqual(client.shoeSize, 41)
        XCTAssertEqual(client.tier, .basic)
        XCTAssertNil(client.birthday)
    }

    func testManagedPropertiesWriteTheStore() throws {
        let accessor = DictionaryAccessor()
        let client = Client(managedBy: accessor)
        client.fullName = "Written"
        client.visits = 5
        client.nickname = nil
        client.tier = .default
        client.class = "kept"
        guard case .string("Written")? = accessor.values[try column("fullName")] else { return XCTFail() }
        guard case .int(5)? = accessor.values[try column("visits")] else { return XCTFail() }
        guard case .null? = accessor.values[try column("nickname")] else { return XCTFail() }
        guard case .string("default")? = accessor.values[try column("tier")] else { return XCTFail() }
        guard case .string("kept")? = accessor.values[try column("class")] else { return XCTFail() }
    }

    func testOutOfRangeStoredIntegerClampsInsteadOfCrashing() throws {
        let accessor = DictionaryAccessor([try column("age"): .int(1_000), try column("shoeSize"): .int(-99_999)])
        let client = Client(managedBy: accessor)
        XCTAssertEqual(client.age, Int8.max)
        XCTAssertEqual(client.shoeSize, Int16.min)
    }

    func testUnknownStoredEnumValueReadsAsTheDefaultCase() throws {
        let client = Client(managedBy: DictionaryAccessor([try column("tier"): .string("platinum")]))
        XCTAssertEqual(client.tier, .gold)
    }

    func testManagedLinksAndListsGoThroughTheAccessor() throws {
        let accessor = DictionaryAccessor()
        let client = Client(managedBy: accessor)
        let order = Order(total: 3)
        client.favourite = order
        XCTAssertTrue(client.favourite === order)
        client.tags.append("one")
        client.tags.append("two")
        client.tags.move(from: 0, to: 1)
        guard case .list(let tags)? = accessor.values[try column("tags")], tags.count == 2,
              case .string("two") = tags[0] else { return XCTFail("tags: \(String(describing: accessor.values[16]))") }
        XCTAssertTrue(client.tags.isManaged)
        client.tags = List(["replaced"])
        XCTAssertEqual(Array(client.tags), ["replaced"])
    }

    func testManagedLinkingObjectsComeFromTheStore() {
        let accessor = DictionaryAccessor()
        let buyer = Client(fullName: "Buyer")
        accessor.backlinks["orders"] = [buyer]
        let order = Order(managedBy: accessor)
        XCTAssertEqual(order.buyers.count, 1)
        XCTAssertTrue(order.buyers[0] === buyer)
    }

    func testSchemaFindsModelClassesByNameAndMakesManagedInstances() throws {
        let type = try XCTUnwrap(Bookshop.objectType(named: "Order"))
        let accessor = DictionaryAccessor([0: .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))])
        let object = type.init(managedBy: accessor)
        let order = try XCTUnwrap(object as? Order)
        XCTAssertEqual(order.id, UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))
        XCTAssertNil(Bookshop.objectType(named: "Customer"), "only the newest version's models have classes")
    }
}

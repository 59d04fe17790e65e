import Foundation
import XCTest
@_spi(StrataGenerated) import Strata

/// Generated classes used as plain Swift objects, before any database is involved.
final class UnmanagedObjectTests: XCTestCase {
    func testInitializerKeepsTheValuesItIsGiven() {
        let birthday = Date(timeIntervalSince1970: 86_400)
        let client = Client(
            id: 7, fullName: "Ana", nickname: "An", points: 1 << 40, age: 30, shoeSize: 38, birthday: birthday,
            tier: .basic, tags: ["night owl", "poetry"], scores: [3, nil], class: "first"
        )
        XCTAssertFalse(client.isManaged)
        XCTAssertEqual(client.id, 7)
        XCTAssertEqual(client.fullName, "Ana")
        XCTAssertEqual(client.nickname, "An")
        XCTAssertEqual(client.points, 1 << 40)
        XCTAssertEqual(client.age, 30)
        XCTAssertEqual(client.shoeSize, 38)
        XCTAssertEqual(client.birthday, birthday)
        XCTAssertEqual(client.tier, .basic)
        XCTAssertEqual(Array(client.tags), ["night owl", "poetry"])
        XCTAssertEqual(Array(client.scores), [3, nil])
        XCTAssertEqual(client.class, "first")
    }

    func testOmittedParametersTakeTheSchemaDefaultsOrZeroValues() {
        let client = Client()
        XCTAssertEqual(client.fullName, "")
        XCTAssertNil(client.nickname)
        XCTAssertEqual(client.age, 18)
        XCTAssertEqual(client.balance, 0)
        XCTAssertEqual(client.ratio, 0.5)
        XCTAssertTrue(client.active)
        XCTAssertEqual(client.tier, .gold)
        XCTAssertEqual(client.externalID, UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        XCTAssertEqual(client.class, "a \"quoted\"\\ value")
        XCTAssertTrue(client.tags.isEmpty)
        XCTAssertNil(client.favourite)

        let order = Order()
        XCTAssertEqual(order.placed, ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z"))
        XCTAssertEqual(order.reference, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    }

    func testAutoDefaultsGiveEachObjectItsOwnUUIDAndTheCurrentDate() {
        let before = Date()
        let first = Order()
        let second = Order()
        XCTAssertNotEqual(first.id, second.id)
        XCTAssertNotEqual(Client().token, Client().token)
        XCTAssertGreaterThanOrEqual(Client().joined, before)
    }

    func testAutoIntegerKeyStaysUnassignedUntilTheObjectIsAdded() {
        let client = Client(fullName: "No key yet")
        XCTAssertEqual(client.id, 0, "an unassigned key reads as 0")
        guard case .null = client.persistedValues()[0] else {
            return XCTFail("an unassigned auto key must read as .null so that the runtime assigns the next integer")
        }
        client.id = 12
        guard case .int(12) = client.persistedValues()[0] else { return XCTFail("an assigned key is persisted") }
    }

    func testPropertiesCanBeChangedLikeStoredProperties() {
        let client = Client()
        let order = Order(total: 12.5)
        client.fullName = "Bo"
        client.age = 41
        client.tier = .default
        client.favourite = order
        client.orders.append(order)
        client.cache = Data([1, 2])
        XCTAssertEqual(client.fullName, "Bo")
        XCTAssertEqual(client.age, 41)
        XCTAssertEqual(client.tier, .default)
        XCTAssertTrue(client.favourite === order)
        XCTAssertTrue(client.orders.first === order)
        XCTAssertEqual(client.cache, Data([1, 2]))
    }

    func testAssigningAListCopiesItsElements() {
        let first = Client(tags: ["a"])
        let second = Client(tags: ["b", "c"])
        first.tags = second.tags
        second.tags.append("d")
        XCTAssertEqual(Array(first.tags), ["b", "c"])
        XCTAssertEqual(Array(second.tags), ["b", "c", "d"])
    }

    func testLinkingObjectsOfAnUnmanagedObjectAreEmpty() {
        let order = Order()
        _ = Client(orders: [order])
        XCTAssertTrue(order.buyers.isEmpty)
        XCTAssertEqual(order.buyers.propertyName, "orders")
    }

    func testPersistedValuesFollowTheColumnOrderAndSkipTransientProperties() throws {
        let order = Order()
        let client = Client(id: 3, fullName: "Ana", tier: .basic, tags: ["x"], orders: [order], favourite: order)
        client.cache = Data([9])
        let values = client.persistedValues()
        let description = Client.modelDescription
        XCTAssertEqual(values.count, description.properties.count)
        XCTAssertNil(description.column(named: "cache"), "transient properties have no column")

        let fullName = try XCTUnwrap(description.column(named: "fullName"))
        guard case .string("Ana") = values[fullName] else { return XCTFail("fullName: \(values[fullName])") }
        let tier = try XCTUnwrap(description.column(named: "tier"))
        guard case .string("basic") = values[tier] else { return XCTFail("an enum persists its raw value") }
        let tags = try XCTUnwrap(description.column(named: "tags"))
        guard case .list(let elements) = values[tags], elements.count == 1, case .string("x") = elements[0] else {
            return XCTFail("tags: \(values[tags])")
        }
        let favourite = try XCTUnwrap(description.column(named: "favourite"))
        guard case .object(let linked) = values[favourite] else { return XCTFail("favourite: \(values[favourite])") }
        XCTAssertTrue(linked === order)
        let shoeSize = try XCTUnwrap(description.column(named: "shoeSize"))
        guard case .null = values[shoeSize] else { return XCTFail("nil optionals persist as .null") }
    }

    func testEmptyModelHasANoArgumentInitializer() {
        XCTAssertTrue(Blank().persistedValues().isEmpty)
        XCTAssertEqual(Blank.modelDescription.name, "Blank")
    }
}

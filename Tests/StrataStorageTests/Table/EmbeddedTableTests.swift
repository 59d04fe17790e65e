import StrataTestSupport
import XCTest

@testable import StrataStorage

/// Embedded tables: links into them own their targets (one slot each, deleted when the slot lets go), the flag
/// survives commits in catalog format 2 (format 1 stays for catalogs without flags), and a randomized sequence of
/// assignments, replacements, removals and deletes never leaves an embedded object without exactly one owner.
final class EmbeddedTableTests: XCTestCase {
    private var fixture: TableFixture!
    private var parent: Table!
    private var address: Table!
    private var geo: Table!
    private var one: ColumnKey!
    private var many: ColumnKey!
    private var city: ColumnKey!
    private var inner: ColumnKey!
    private var lat: ColumnKey!

    override func setUpWithError() throws {
        fixture = try TableFixture()
        parent = try fixture.catalog.createTable(named: "Parent")
        address = try fixture.catalog.createTable(named: "Address")
        geo = try fixture.catalog.createTable(named: "Geo")
        try address.setEmbedded(true)
        try geo.setEmbedded(true)
        city = try address.addColumn(named: "city", type: .value(.string))
        lat = try geo.addColumn(named: "lat", type: .value(.double))
        inner = try address.addColumn(named: "geo", type: .value(.link), target: geo.key)
        one = try parent.addColumn(named: "home", type: .value(.link), target: address.key)
        many = try parent.addColumn(named: "pastHomes", type: .list(.link), target: address.key)
    }

    /// Reloads the tables from the fixture's current catalog (after a commit).
    private func reload() throws {
        parent = try XCTUnwrap(fixture.catalog.table(named: "Parent"))
        address = try XCTUnwrap(fixture.catalog.table(named: "Address"))
        geo = try XCTUnwrap(fixture.catalog.table(named: "Geo"))
    }

    private func newAddress(_ name: String, withGeo: Bool = false) throws -> ObjectKey {
        let key = try address.insert([(city, .string(name))])
        if withGeo { try address.set(key, column: inner, to: .link(try geo.insert([(lat, .double(1))]))) }
        return key
    }

    func testTheFlagSurvivesACommitAndOnlyFlaggedCatalogsUseFormat2() throws {
        try fixture.commit()
        try reload()
        XCTAssertTrue(address.isEmbedded)
        XCTAssertFalse(parent.isEmbedded)
        let flagged = CatalogCodec.encode(CatalogCodec.Contents(tables: [
            TableRecord(key: TableKey(rawValue: 1), name: "A", isEmbedded: true),
        ]))
        let plain = CatalogCodec.encode(CatalogCodec.Contents(tables: [TableRecord(key: TableKey(rawValue: 1), name: "A")]))
        XCTAssertEqual(Array(flagged.bytes[4..<8]), [2, 0, 0, 0])
        XCTAssertEqual(Array(plain.bytes[4..<8]), [1, 0, 0, 0])
        let decoded = try flagged.bytes.withUnsafeBytes { try CatalogCodec.decode($0, ref: .none) }
        XCTAssertEqual(decoded.tables.first?.isEmbedded, true)
        try address.setEmbedded(false)
        try geo.setEmbedded(false)
        try fixture.commit()
        try reload()
        XCTAssertFalse(address.isEmbedded)
    }

    func testReplacingClearingAndDeletingLetGoOfOwnedObjects() throws {
        let first = try newAddress("Paris", withGeo: true)
        let owner = try parent.insert([(one, .link(first))])
        XCTAssertEqual(try geo.count(), 1)
        let second = try newAddress("Rome")
        try parent.set(owner, column: one, to: .link(second))
        XCTAssertFalse(try address.contains(first))
        XCTAssertEqual(try geo.count(), 0, "nested embedded objects go with their owner")
        let listed = try (0..<3).map { try newAddress("L\($0)") }
        try parent.set(owner, column: many, to: .list(listed.map { .link($0) }))
        try parent.listRemove(owner, column: many, at: 1)
        XCTAssertFalse(try address.contains(listed[1]))
        try parent.listMove(owner, column: many, from: 0, to: 1)
        XCTAssertEqual(try address.count(), 3)
        try parent.delete(owner)
        XCTAssertEqual(try address.count(), 0)
        try fixture.catalog.verify()
    }

    func testASecondSlotIsRefusedBeforeAnythingChanges() throws {
        let home = try newAddress("Paris")
        let ana = try parent.insert([(one, .link(home))])
        let bo = try parent.insert()
        XCTAssertThrowsError(try parent.set(bo, column: many, to: .list([.link(home)]))) { error in
            XCTAssertTrue("\(error)".contains("already belongs to Parent.home of object \(ana.rawValue)"), "\(error)")
        }
        XCTAssertEqual(try parent.list(bo, column: many), [])
        XCTAssertThrowsError(try parent.insert([(one, .link(home))]))
        let twice = try newAddress("Twice")
        XCTAssertThrowsError(try parent.set(bo, column: many, to: .list([.link(twice), .link(twice)]))) { error in
            XCTAssertTrue("\(error)".contains("twice"), "\(error)")
        }
        XCTAssertEqual(try address.backlinkCount(of: home), 1)
        XCTAssertEqual(try address.unownedObjects(), [twice])
        XCTAssertTrue(try address.sharedObjects().isEmpty)
    }

    func testRemovingTheOwningColumnDeletesWhatItOwned() throws {
        let home = try newAddress("Paris", withGeo: true)
        let kept = try newAddress("Kept")
        _ = try parent.insert([(one, .link(home)), (many, .list([.link(kept)]))])
        try parent.removeColumn(one)
        XCTAssertFalse(try address.contains(home))
        XCTAssertTrue(try address.contains(kept))
        XCTAssertEqual(try geo.count(), 0)
        try fixture.catalog.verify()
    }

    /// Random assignments, replacements, list changes and deletes against a brute-force model of who owns what:
    /// after every commit each embedded object has exactly one owner, and the tables hold exactly the model's.
    func testRandomOwnershipMatchesABruteForceModel() throws {
        var random = SeededGenerator(seed: 0xE3BE_DDED)
        var homes: [ObjectKey: ObjectKey?] = [:]  // parent → its home
        var lists: [ObjectKey: [ObjectKey]] = [:]  // parent → its past homes
        var geos: [ObjectKey: ObjectKey?] = [:]  // address → its geo
        func owned() -> [ObjectKey] { homes.values.compactMap { $0 } + lists.values.flatMap { $0 } }
        func add(_ name: String) throws -> ObjectKey {
            let withGeo = Bool.random(using: &random)
            let key = try newAddress(name, withGeo: withGeo)
            geos[key] = withGeo ? try address.link(key, column: inner) : nil
            return key
        }
        func forget(_ keys: [ObjectKey]) { for key in keys { geos[key] = nil } }
        for step in 0..<1_500 {
            let parents = homes.keys.sorted()
            let someParent = parents.randomElement(using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0 where parents.count < 12, 1 where parents.isEmpty:
                let key = try parent.insert()
                homes[key] = .some(nil)
                lists[key] = []
            case 1, 2:
                guard let someParent else { continue }
                let replacement = Bool.random(using: &random) ? try add("H\(step)") : nil
                forget([homes[someParent]].compactMap { $0 }.compactMap { $0 })
                try parent.set(someParent, column: one, to: replacement.map { StorageValue.link($0) } ?? .null)
                homes[someParent] = replacement
            case 3, 4:
                guard let someParent else { continue }
                let added = try add("L\(step)")
                let index = Int.random(in: 0...lists[someParent, default: []].count, using: &random)
                try parent.listInsert(someParent, column: many, .link(added), at: index)
                lists[someParent, default: []].insert(added, at: index)
            case 5:
                guard let someParent, let elements = lists[someParent], !elements.isEmpty else { continue }
                let index = Int.random(in: 0..<elements.count, using: &random)
                try parent.listRemove(someParent, column: many, at: index)
                forget([elements[index]])
                lists[someParent]?.remove(at: index)
            case 6:
                guard let someParent, let elements = lists[someParent], elements.count > 1 else { continue }
                try parent.listMove(someParent, column: many, from: 0, to: elements.count - 1)
                lists[someParent] = Array(elements.dropFirst()) + [elements[0]]
            case 7:
                guard let someParent else { continue }
                let fresh = try (0..<Int.random(in: 0...2, using: &random)).map { try add("R\(step).\($0)") }
                forget(lists[someParent] ?? [])
                try parent.set(someParent, column: many, to: .list(fresh.map { StorageValue.link($0) }))
                lists[someParent] = fresh
            case 8:
                guard let someParent, let other = parents.randomElement(using: &random),
                    let stolen = owned().randomElement(using: &random)
                else { continue }
                _ = someParent
                XCTAssertThrowsError(try parent.listAppend(other, column: many, .link(stolen)), "step \(step)")
            default:
                guard let someParent else { continue }
                forget([homes[someParent]].compactMap { $0 }.compactMap { $0 } + (lists[someParent] ?? []))
                try parent.delete(someParent)
                homes[someParent] = nil
                lists[someParent] = nil
            }
            if step % 25 == 24 {
                try fixture.commit()
                try reload()
                let expected = Set(owned())
                XCTAssertEqual(expected.count, owned().count, "step \(step): a model slot was reused")
                XCTAssertEqual(Set(try address.keys()), expected, "step \(step)")
                XCTAssertEqual(Set(try geo.keys()), Set(geos.values.compactMap { $0 }), "step \(step)")
                for key in try address.keys() { XCTAssertEqual(try address.backlinkCount(of: key), 1, "step \(step)") }
                for key in try geo.keys() { XCTAssertEqual(try geo.backlinkCount(of: key), 1, "step \(step)") }
                for (owner, home) in homes { XCTAssertEqual(try parent.link(owner, column: one), home) }
                for (owner, list) in lists {
                    XCTAssertEqual(try parent.list(owner, column: many), list.map { StorageValue.link($0) })
                }
            }
        }
        try fixture.catalog.verify()
    }
}

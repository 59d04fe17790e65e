import StrataTestSupport
import XCTest

@testable import StrataStorage

/// `Table.delete(_:alongWith:)` for many keys (one pass per cluster) against deleting the same objects one by one:
/// tables of several clusters with indexes, long values, links, lists, sets and maps of links, links from other
/// tables and owned embedded objects; after every round both files hold the same rows, values and backlinks, and
/// both pass `Catalog.verify()` (links and backlinks inverse, every index entry matching its object).
final class BatchDeleteTests: XCTestCase {
    /// One file of the comparison: its fixture and the columns of its tables.
    private final class Store {
        let fixture: TableFixture
        var item: Table { fixture.catalog.table(named: "Item")! }
        var other: Table { fixture.catalog.table(named: "Other")! }
        var address: Table { fixture.catalog.table(named: "Address")! }
        let number: ColumnKey, label: ColumnKey, next: ColumnKey, items: ColumnKey, slots: ColumnKey
        let tags: ColumnKey, home: ColumnKey, pastHomes: ColumnKey, back: ColumnKey, city: ColumnKey

        init() throws {
            fixture = try TableFixture()
            let catalog = fixture.catalog
            let item = try catalog.createTable(named: "Item")
            let other = try catalog.createTable(named: "Other")
            let address = try catalog.createTable(named: "Address")
            try address.setEmbedded(true)
            city = try address.addColumn(named: "city", type: .value(.string))
            _ = try address.addIndex(on: [city])
            number = try item.addColumn(named: "number", type: .value(.int))
            _ = try item.addIndex(on: [number])
            label = try item.addColumn(named: "label", type: .value(.string))
            _ = try item.addIndex(on: [label])
            next = try item.addColumn(named: "next", type: .value(.link), nullable: true, target: item.key)
            items = try item.addColumn(named: "items", type: .list(.link), target: item.key)
            slots = try item.addColumn(named: "slots", type: .map(.link), elementsNullable: true, target: item.key)
            tags = try item.addColumn(named: "tags", type: .set(.link), target: other.key)
            home = try item.addColumn(named: "home", type: .value(.link), nullable: true, target: address.key)
            pastHomes = try item.addColumn(named: "pastHomes", type: .list(.link), target: address.key)
            back = try other.addColumn(named: "favourite", type: .value(.link), nullable: true, target: item.key)
        }

        /// Every table's rows and values, with the engine's backlinks, as text.
        func dump() throws -> String {
            var lines: [String] = []
            for table in [item, other, address] {
                for key in try table.keys() {
                    let values = try table.columns.map { "\($0.name)=\(try table.value(key, column: $0.key))" }
                    lines.append("\(table.name) \(key.rawValue): " + values.joined(separator: " "))
                }
            }
            return lines.joined(separator: "\n")
        }
    }

    func testABatchLeavesWhatDeletingOneByOneLeaves() throws {
        let single = try Store()
        let batch = try Store()
        var random = SeededGenerator(seed: 2026)
        let count = 1_200
        let others = 100
        for store in [single, batch] {
            var generator = random
            try populate(store, items: count, others: others, random: &generator)
        }
        var alive = Array(0..<Int64(count))
        for round in 0..<3 {
            // Runs of neighbours (whole clusters) and scattered keys.
            var doomed = Set<Int64>()
            let start = random.below(alive.count / 2)
            for key in alive[start..<min(alive.count, start + alive.count / 5)] { doomed.insert(key) }
            for _ in 0..<alive.count / 10 { doomed.insert(alive[random.below(alive.count)]) }
            var keys = doomed.map { ObjectKey($0) }
            keys.shuffle(using: &random)
            for key in keys { try single.item.delete(key) }
            try batch.item.delete(keys + [ObjectKey(Int64(count) + 7)], alongWith: nil)
            alive.removeAll { doomed.contains($0) }
            XCTAssertEqual(try batch.item.count(), alive.count, "round \(round)")
            XCTAssertEqual(try single.dump(), try batch.dump(), "round \(round)")
            try batch.fixture.catalog.verify()
            try single.fixture.catalog.verify()
            try single.fixture.commit()
            try batch.fixture.commit()
        }
        XCTAssertEqual(try single.dump(), try batch.dump())
        // Every index still finds exactly the remaining objects.
        let index = try XCTUnwrap(batch.item.indexes.first { $0.spec.columns == [batch.number] })
        XCTAssertEqual(try batch.item.lookupCount(index.spec.key, equal: [.int(Int64(alive.count % 7))]),
                       alive.filter { $0 % 7 == Int64(alive.count % 7) }.count)
        // Deleting everything empties every cluster and the owned addresses.
        try batch.item.delete(try batch.item.keys(), alongWith: nil)
        XCTAssertEqual(try batch.item.count(), 0)
        XCTAssertEqual(try batch.address.count(), 0)
        try batch.fixture.catalog.verify()
    }

    /// Items `0..<items` (keys equal to `number`), each with a label (one in 50 longer than a cluster keeps inline),
    /// random links, list, map and set elements, an owned home and past homes; others linking to random items.
    private func populate(_ store: Store, items: Int, others: Int, random: inout SeededGenerator) throws {
        let item = store.item
        for n in 0..<items {
            let label = n % 50 == 0 ? String(repeating: "long \(n) ", count: 200) : "label \(n % 97)"
            let key = try item.insert([(store.number, .int(Int64(n % 7))), (store.label, .string(label))], key: ObjectKey(Int64(n)))
            XCTAssertEqual(key.rawValue, Int64(n))
        }
        for _ in 0..<others {
            try store.other.insert([(store.back, .link(ObjectKey(Int64(random.below(max(items, 1))))))])
        }
        guard items > 0 else { return }
        for n in 0..<Int64(items) {
            let key = ObjectKey(n)
            func anyItem() -> StorageValue { .link(ObjectKey(Int64(random.below(items)))) }
            if random.below(3) == 0 { try item.set(key, column: store.next, to: anyItem()) }
            try item.set(key, column: store.items, to: .list((0..<random.below(4)).map { _ in anyItem() }))
            var slots: [String: StorageValue] = [:]
            for slot in 0..<random.below(3) { slots["s\(slot)"] = random.below(4) == 0 ? .null : anyItem() }
            try item.set(key, column: store.slots, to: .map(slots))
            let tags = (0..<random.below(4)).map { _ in StorageValue.link(ObjectKey(Int64(random.below(others)))) }
            try item.set(key, column: store.tags, to: .list(tags))
            if random.below(2) == 0 {
                let home = try store.address.insert([(store.city, .string("city \(random.below(10))"))])
                try item.set(key, column: store.home, to: .link(home))
            }
            let past = try (0..<random.below(3)).map { _ in
                StorageValue.link(try store.address.insert([(store.city, .string("city \(random.below(10))"))]))
            }
            try item.set(key, column: store.pastHomes, to: .list(past))
        }
        try store.fixture.commit()
    }
}

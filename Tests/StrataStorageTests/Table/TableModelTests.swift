import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

/// Thousands of random operations applied to the tables and to `TableModel`, compared after every commit and
/// rollback, with `verify()` after each round. `STRATA_LONG_TESTS=1` runs many more rounds.
final class TableModelTests: XCTestCase {
    private struct Harness {
        let space = MemoryNodeSpace()
        var catalog: Catalog
        var model = TableModel()
        var committed = TableModel()
        var random: SeededGenerator
        var nextID: Int64 = 1

        init(seed: UInt64) throws {
            random = SeededGenerator(seed: seed)
            catalog = try Catalog(writer: space)
        }
    }

    private static let personColumns: [TableModel.Column] = [
        .init(name: "id", type: .value(.int)),
        .init(name: "name", type: .value(.string)),
        .init(name: "age", type: .value(.int)),
        .init(name: "hired", type: .value(.bool)),
        .init(name: "salary", type: .value(.double)),
        .init(name: "ratio", type: .value(.float)),
        .init(name: "note", type: .value(.string)),
        .init(name: "photo", type: .value(.binary)),
        .init(name: "born", type: .value(.timestamp)),
        .init(name: "token", type: .value(.uuid)),
        .init(name: "tags", type: .list(.string)),
        .init(name: "scores", type: .list(.int)),
        .init(name: "favourite", type: .value(.link), target: "Book"),
        .init(name: "loans", type: .list(.link), target: "Book"),
        .init(name: "friend", type: .value(.link), target: "Person"),
        .init(name: "nicknames", type: .set(.string)),
        .init(name: "lucky", type: .set(.int)),
        .init(name: "grades", type: .map(.int)),
        .init(name: "shelf", type: .set(.link), target: "Book"),
        .init(name: "picks", type: .map(.link), target: "Book"),
        .init(name: "amount", type: .value(.decimal)),
        .init(name: "oid", type: .value(.objectId)),
        .init(name: "mixed", type: .value(.mixed)),
        .init(name: "mixes", type: .list(.mixed)),
        .init(name: "coins", type: .set(.decimal)),
        .init(name: "stamps", type: .map(.objectId)),
        .init(name: "extras", type: .map(.mixed)),
        .init(name: "mixset", type: .set(.mixed)),
    ]
    private static let nullable: Set<String> = ["age", "note", "born", "token", "ratio", "amount", "mixed"]
    /// Columns whose values may link to any table (their backlinks are checked by brute force).
    private static let mixedColumns = ["mixed", "mixes", "extras", "mixset"]
    private static let bookColumns: [TableModel.Column] = [
        .init(name: "title", type: .value(.string)),
        .init(name: "owner", type: .value(.link), target: "Person"),
        .init(name: "sequels", type: .list(.link), target: "Book"),
    ]

    func testRandomOperationsMatchThePlainModel() throws {
        let environment = ProcessInfo.processInfo.environment
        let long = environment["STRATA_LONG_TESTS"] == "1"
        // `STRATA_TABLE_SEEDS=2,5` replays those seeds (with the long run's rounds when it is set) to chase a failure.
        let chosen = environment["STRATA_TABLE_SEEDS"].map { $0.split(separator: ",").compactMap { Int($0) } }
        for seed in chosen ?? (long ? Array(1...20) : [7, 8]) {
            try run(seed: UInt64(seed), rounds: long ? 200 : 25, operationsPerRound: 60)
        }
    }

    private func run(seed: UInt64, rounds: Int, operationsPerRound: Int) throws {
        var h = try Harness(seed: seed)
        let person = try h.catalog.createTable(named: "Person")
        let book = try h.catalog.createTable(named: "Book")
        for column in Self.personColumns where column.target == nil {
            try person.addColumn(named: column.name, type: column.type, nullable: Self.nullable.contains(column.name),
                                 elementsNullable: column.type.isMixed)
            h.model.addColumn(column, to: "Person", fill: .null)
        }
        for column in Self.bookColumns where column.target == nil {
            try book.addColumn(named: column.name, type: column.type)
            h.model.addColumn(column, to: "Book", fill: .null)
        }
        for (table, columns) in [(person, Self.personColumns), (book, Self.bookColumns)] {
            for column in columns where column.target != nil {
                try table.addColumn(named: column.name, type: column.type, target: h.catalog.table(named: column.target!)!.key)
                h.model.addColumn(column, to: table.name, fill: .null)
            }
        }
        try person.setPrimaryKey(person.column(named: "id")!.key)
        try person.addIndex(on: [person.column(named: "name")!.key])
        try person.addIndex(on: [person.column(named: "hired")!.key, person.column(named: "age")!.key])
        for name in ["amount", "oid", "mixed"] { try person.addIndex(on: [person.column(named: name)!.key]) }
        try commit(&h)
        for round in 0..<rounds {
            for _ in 0..<operationsPerRound { try randomOperation(&h) }
            if round % 10 == 4 { try bulkBooks(&h, insert: true) }
            if round % 10 == 8 { try bulkBooks(&h, insert: false) }
            if Int.random(in: 0..<5, using: &h.random) == 0 {
                h.space.rollback()
                h.model = h.committed
                h.catalog = try Catalog(writer: h.space)
            } else {
                try h.catalog.verify()
                try commit(&h)
            }
            try compare(h, context: "seed \(seed) round \(round)")
            XCTAssertEqual(h.space.violations, [], "seed \(seed) round \(round)")
        }
        var reachable: [NodeRef] = []
        try h.catalog.forEachNode { reachable.append($0) }
        XCTAssertEqual(Set(reachable).count, reachable.count, "a node is reachable twice")
        XCTAssertEqual(Set(reachable), h.space.committedRefs, "reachable nodes differ from the stored ones (leak or dangling)")
    }

    private func commit(_ h: inout Harness) throws {
        try h.catalog.flush()
        h.space.commit()
        h.committed = h.model
        h.catalog = try Catalog(writer: h.space)
    }

    // MARK: Operations

    private func randomValue(_ column: TableModel.Column, _ h: inout Harness) -> StorageValue {
        if Self.nullable.contains(column.name), Int.random(in: 0..<5, using: &h.random) == 0 { return .null }
        switch column.type {
        case .value(.int): return .int(Int64.random(in: -3...3, using: &h.random) << Int64.random(in: 0...62, using: &h.random))
        case .value(.bool): return .bool(Bool.random(using: &h.random))
        case .value(.double): return .double(Double.random(in: -1e6...1e6, using: &h.random))
        case .value(.float): return .float(Float(Int.random(in: -1000...1000, using: &h.random)) / 8)
        case .value(.string): return .string(randomString(&h))
        case .value(.binary): return .binary((0..<Int.random(in: 0...40, using: &h.random)).map { _ in UInt8.random(in: 0...255, using: &h.random) })
        case .value(.timestamp): return .timestamp(Int64.random(in: -1_000_000_000_000...1_000_000_000_000, using: &h.random))
        case .value(.uuid): return .uuid(UUID())
        case .list(.string): return .list((0..<Int.random(in: 0...4, using: &h.random)).map { _ in .string(randomString(&h)) })
        case .list(.int): return .list((0..<Int.random(in: 0...6, using: &h.random)).map { _ in .int(Int64.random(in: -9...9, using: &h.random)) })
        case .value(.link): return randomLink(column.target!, &h).map { .link($0) } ?? .null
        case .list(.link), .set(.link):
            return .list((0..<Int.random(in: 0...3, using: &h.random)).compactMap { _ in randomLink(column.target!, &h).map { .link($0) } })
        case .set(.string): return .list((0..<Int.random(in: 0...5, using: &h.random)).map { _ in .string(randomString(&h)) })
        case .set(.int): return .list((0..<Int.random(in: 0...6, using: &h.random)).map { _ in .int(Int64.random(in: -5...5, using: &h.random)) })
        case .map(.int):
            let count = Int.random(in: 0...4, using: &h.random)
            return .map(Dictionary((0..<count).map { _ in (randomKey(&h), .int(Int64.random(in: -9...9, using: &h.random))) },
                                   uniquingKeysWith: { $1 }))
        case .map(.link):
            let count = Int.random(in: 0...3, using: &h.random)
            return .map(Dictionary((0..<count).map { _ in (randomKey(&h), randomLink(column.target!, &h).map { .link($0) } ?? .null) },
                                   uniquingKeysWith: { $1 }))
        case .value(.decimal): return .decimal(randomDecimal(&h))
        case .value(.objectId): return .objectId(randomObjectId(&h))
        case .value(.mixed): return randomMixed(&h)
        case .list(.mixed): return .list((0..<Int.random(in: 0...4, using: &h.random)).map { _ in randomMixed(&h) })
        case .set(.decimal): return .list((0..<Int.random(in: 0...5, using: &h.random)).map { _ in .decimal(randomDecimal(&h)) })
        case .map(.objectId):
            let count = Int.random(in: 0...3, using: &h.random)
            return .map(Dictionary((0..<count).map { _ in (randomKey(&h), .objectId(randomObjectId(&h))) }, uniquingKeysWith: { $1 }))
        case .map(.mixed):
            let count = Int.random(in: 0...4, using: &h.random)
            return .map(Dictionary((0..<count).map { _ in (randomKey(&h), randomMixed(&h)) }, uniquingKeysWith: { $1 }))
        case .set(.mixed): return .list((0..<Int.random(in: 0...5, using: &h.random)).map { _ in randomMixed(&h) })
        default: return .null
        }
    }

    private func randomDecimal(_ h: inout Harness) -> Decimal {
        let texts = ["0", "1", "-1", "10.25", "-0.001", "1e20", "-3.5e-7", "123456789012345678901234567890.12345678", "2.50"]
        if Int.random(in: 0..<3, using: &h.random) == 0 { return Decimal(string: texts[Int.random(in: 0..<texts.count, using: &h.random)])! }
        return Decimal(Int.random(in: -100_000...100_000, using: &h.random)) / 100
    }

    private func randomObjectId(_ h: inout Harness) -> ObjectId {
        ObjectId(bytes: (0..<12).map { _ in UInt8.random(in: 0...3, using: &h.random) })!
    }

    /// A mixed value of a random kind, a link to a Person or a Book among them.
    private func randomMixed(_ h: inout Harness) -> StorageValue {
        switch Int.random(in: 0..<11, using: &h.random) {
        case 0: return .null
        case 1: return .int(Int64.random(in: -5...5, using: &h.random))
        case 2: return .double(Double(Int.random(in: -10...10, using: &h.random)) / 2)
        case 3: return .string(randomString(&h))
        case 4: return .decimal(randomDecimal(&h))
        case 5: return .objectId(randomObjectId(&h))
        case 6: return .bool(Bool.random(using: &h.random))
        case 7: return .timestamp(Int64.random(in: -1000...1000, using: &h.random))
        case 8: return .binary([0, 1, UInt8.random(in: 0...255, using: &h.random)])
        default:
            let table = Bool.random(using: &h.random) ? "Person" : "Book"
            guard let key = randomLink(table, &h) else { return .null }
            return .typedLink(h.catalog.table(named: table)!.key, key)
        }
    }

    private func randomString(_ h: inout Harness) -> String {
        switch Int.random(in: 0..<20, using: &h.random) {
        case 0: return String(repeating: "long-é-", count: Int.random(in: 150...3000, using: &h.random))
        case 1: return ""
        case 2: return "zero\u{0}byte"
        default: return "name-\(Int.random(in: 0..<200, using: &h.random))"
        }
    }

    private func randomKey(_ h: inout Harness) -> String {
        ["", "a", "b", "é", "key-\(Int.random(in: 0..<6, using: &h.random))"][Int.random(in: 0..<5, using: &h.random)]
    }

    private func randomLink(_ table: String, _ h: inout Harness) -> ObjectKey? {
        let keys = h.model.tables[table]!.objects.keys.sorted()
        return keys.isEmpty ? nil : keys[Int.random(in: 0..<keys.count, using: &h.random)]
    }

    private func randomOperation(_ h: inout Harness) throws {
        let person = h.catalog.table(named: "Person")!
        let book = h.catalog.table(named: "Book")!
        switch Int.random(in: 0..<100, using: &h.random) {
        case 0..<30:
            var values: [String: StorageValue] = [:]
            for column in Self.personColumns { values[column.name] = randomValue(column, &h) }
            let duplicate = Int.random(in: 0..<10, using: &h.random) == 0 && h.nextID > 1
            let id = duplicate ? Int64.random(in: 1..<h.nextID, using: &h.random) : h.nextID
            values["id"] = .int(id)
            if person.column(named: "extra") != nil, Bool.random(using: &h.random) { values["extra"] = .int(7) }
            let exists = h.model.tables["Person"]!.objects.values.contains { $0["id"] == .int(id) }
            do {
                let key = try person.insert(values.map { (person.column(named: $0.key)!.key, $0.value) })
                XCTAssertFalse(exists, "a duplicate primary key \(id) was accepted")
                var stored = values
                if person.column(named: "extra") != nil, stored["extra"] == nil { stored["extra"] = .int(42) }
                h.model.insert(key, into: "Person", values: stored)
                if !duplicate { h.nextID += 1 }
            } catch StrataError.duplicatePrimaryKey {
                XCTAssertTrue(exists, "primary key \(id) was refused but is free")
            }
        case 30..<40:
            var values: [String: StorageValue] = [:]
            for column in Self.bookColumns { values[column.name] = randomValue(column, &h) }
            let key = try book.insert(values.map { (book.column(named: $0.key)!.key, $0.value) })
            h.model.insert(key, into: "Book", values: values)
        case 40..<65:
            guard let key = randomLink("Person", &h) else { return }
            let column = Self.personColumns[Int.random(in: 1..<Self.personColumns.count, using: &h.random)]
            let value = randomValue(column, &h)
            try person.set(key, column: person.column(named: column.name)!.key, to: value)
            h.model.set(key, in: "Person", column: column.name, to: value)
        case 65..<72:
            guard let key = randomLink("Book", &h) else { return }
            let column = Self.bookColumns[Int.random(in: 0..<Self.bookColumns.count, using: &h.random)]
            let value = randomValue(column, &h)
            try book.set(key, column: book.column(named: column.name)!.key, to: value)
            h.model.set(key, in: "Book", column: column.name, to: value)
        case 72..<79:
            try randomListOperation(&h, person)
        case 79..<85:
            try randomSetOrMapOperation(&h, person)
        case 85..<95:
            let table = Bool.random(using: &h.random) ? "Person" : "Book"
            guard let key = randomLink(table, &h) else { return }
            try h.catalog.table(named: table)!.delete(key)
            h.model.delete(key, from: table, tableKey: h.catalog.table(named: table)!.key)
        case 95..<97:
            let age = person.column(named: "age")!.key
            if let index = person.index(on: [age]) { try person.removeIndex(index.key) } else { try person.addIndex(on: [age]) }
        default:
            if let extra = person.column(named: "extra") {
                try person.removeColumn(extra.key)
                h.model.removeColumn("extra", from: "Person")
            } else {
                try person.addColumn(named: "extra", type: .value(.int), defaultValue: .int(42))
                h.model.addColumn(.init(name: "extra", type: .value(.int)), to: "Person", fill: .int(42))
            }
        }
    }

    /// Inserts enough books to split clusters, or deletes most of them so clusters merge (links to them vanish).
    private func bulkBooks(_ h: inout Harness, insert: Bool) throws {
        let book = h.catalog.table(named: "Book")!
        let title = book.column(named: "title")!.key
        if insert {
            for index in 0..<1100 {
                let key = try book.insert([(title, .string("bulk \(index)"))])
                h.model.insert(key, into: "Book", values: ["title": .string("bulk \(index)"), "owner": .null, "sequels": .list([])])
            }
        } else {
            let keys = h.model.tables["Book"]!.objects.keys.sorted()
            for key in keys where Int.random(in: 0..<10, using: &h.random) != 0 {
                try book.delete(key)
                h.model.delete(key, from: "Book", tableKey: book.key)
            }
        }
    }

    private func randomListOperation(_ h: inout Harness, _ person: Table) throws {
        guard let key = randomLink("Person", &h) else { return }
        let name = ["tags", "scores", "loans", "mixes"][Int.random(in: 0..<4, using: &h.random)]
        let column = Self.personColumns.first { $0.name == name }!
        let columnKey = person.column(named: name)!.key
        guard case .list(var elements)? = h.model.value(key, in: "Person", column: name) else { return XCTFail("no list") }
        let element: StorageValue
        switch randomValue(column, &h) {
        case .list(let fresh) where !fresh.isEmpty: element = fresh[0]
        default: element = name == "loans" || name == "mixes" ? .null : .int(0)
        }
        switch Int.random(in: 0..<6, using: &h.random) {
        case 0 where (!element.isNull || name == "mixes") && (name != "tags" || element.kind == .string)
            && (name != "scores" || element.kind == .int):
            let index = Int.random(in: 0...elements.count, using: &h.random)
            try person.listInsert(key, column: columnKey, element, at: index)
            elements.insert(element, at: index)
        case 1 where !elements.isEmpty:
            let index = Int.random(in: 0..<elements.count, using: &h.random)
            try person.listRemove(key, column: columnKey, at: index)
            elements.remove(at: index)
        case 2 where !elements.isEmpty:
            let from = Int.random(in: 0..<elements.count, using: &h.random)
            let to = Int.random(in: 0..<elements.count, using: &h.random)
            try person.listMove(key, column: columnKey, from: from, to: to)
            elements.insert(elements.remove(at: from), at: to)
        case 3 where !elements.isEmpty && (name == "mixes" || (!element.isNull && element.kind == elements[0].kind)):
            let index = Int.random(in: 0..<elements.count, using: &h.random)
            try person.listSet(key, column: columnKey, at: index, to: element)
            elements[index] = element
        case 4:
            try person.listClear(key, column: columnKey)
            elements = []
        default:
            XCTAssertEqual(try person.listCount(key, column: columnKey), elements.count)
            if !elements.isEmpty { XCTAssertEqual(try person.listElement(key, column: columnKey, at: 0), elements[0]) }
            return
        }
        h.model.set(key, in: "Person", column: name, to: .list(elements))
    }

    private func randomSetOrMapOperation(_ h: inout Harness, _ person: Table) throws {
        guard let key = randomLink("Person", &h) else { return }
        let names = ["nicknames", "lucky", "shelf", "grades", "picks", "coins", "stamps", "extras", "mixset"]
        let name = names[Int.random(in: 0..<names.count, using: &h.random)]
        let column = Self.personColumns.first { $0.name == name }!
        let columnKey = person.column(named: name)!.key
        switch (h.model.value(key, in: "Person", column: name), randomValue(column, &h)) {
        case (.list(var elements)?, .list(let fresh)):
            guard let element = fresh.first ?? elements.first else { return }
            let held = elements.contains(element)
            if Bool.random(using: &h.random) {
                XCTAssertEqual(try person.setInsert(key, column: columnKey, element), !held)
                elements.append(element)
            } else {
                XCTAssertEqual(try person.setRemove(key, column: columnKey, element), held)
                elements.removeAll { $0 == element }
            }
            XCTAssertTrue(try elements.allSatisfy { try person.setContains(key, column: columnKey, $0) })
            h.model.set(key, in: "Person", column: name, to: .list(elements))
        case (.map(var entries)?, .map(let fresh)):
            let mapKey = fresh.keys.first ?? randomKey(&h)
            if let value = fresh[mapKey], Bool.random(using: &h.random) {
                try person.mapSet(key, column: columnKey, for: mapKey, to: value)
                entries[mapKey] = value
            } else {
                XCTAssertEqual(try person.mapRemove(key, column: columnKey, for: mapKey), entries[mapKey])
                entries[mapKey] = nil
            }
            XCTAssertEqual(try person.mapCount(key, column: columnKey), entries.count)
            h.model.set(key, in: "Person", column: name, to: .map(entries))
        default:
            XCTFail("\(name) of \(key) is no set or map")
        }
    }

    // MARK: Comparison

    /// A set's elements in an order of their own (by description), to compare sets whatever their element order.
    private static func unordered(_ value: StorageValue?) -> [String] {
        guard case .list(let elements)? = value else { return value.map { [$0.description] } ?? [] }
        return elements.map(\.description).sorted()
    }

    private func compare(_ h: Harness, context: String) throws {
        for (name, model) in h.model.tables {
            let table = try XCTUnwrap(h.catalog.table(named: name), context)
            XCTAssertEqual(try table.keys(), model.objects.keys.sorted(), "keys of \(name), \(context)")
            XCTAssertEqual(try table.count(), model.objects.count, context)
            for (key, values) in model.objects {
                for column in model.columns {
                    let stored = try table.value(key, column: table.column(named: column.name)!.key)
                    if column.type == .set(.mixed) {
                        // The model keeps a `set<any>` without repeats but not in the store's element order.
                        XCTAssertEqual(Self.unordered(stored), Self.unordered(values[column.name]),
                                       "\(name).\(column.name) of \(key), \(context)")
                    } else {
                        XCTAssertEqual(stored, values[column.name], "\(name).\(column.name) of \(key), \(context)")
                    }
                }
            }
            for (origin, originModel) in h.model.tables {
                for column in originModel.columns where column.target == name {
                    let originTable = h.catalog.table(named: origin)!
                    let expected = h.model.allBacklinks(from: origin, column: column.name)
                    for key in model.objects.keys {
                        XCTAssertEqual(try table.backlinks(of: key, from: originTable.key, column: originTable.column(named: column.name)!.key),
                                       expected[key] ?? [],
                                       "backlinks of \(name) \(key) from \(origin).\(column.name), \(context)")
                    }
                }
            }
        }
        let person = h.catalog.table(named: "Person")!
        for target in ["Person", "Book"] {
            let table = h.catalog.table(named: target)!
            for column in Self.mixedColumns {
                let origin = person.column(named: column)!.key
                var expected: [ObjectKey: [ObjectKey]] = [:]
                for (source, values) in h.model.tables["Person"]!.objects {
                    let held: [StorageValue]
                    switch values[column] {
                    case .list(let elements)?: held = elements
                    case .map(let entries)?: held = Array(entries.values)
                    default: held = values[column].map { [$0] } ?? []
                    }
                    for case .typedLink(table.key, let linked) in held { expected[linked, default: []].append(source) }
                }
                for key in h.model.tables[target]!.objects.keys {
                    let actual = (try? table.backlinks(of: key, from: person.key, column: origin)) ?? []
                    XCTAssertEqual(actual, (expected[key] ?? []).sorted(), "mixed backlinks of \(target) \(key) from Person.\(column), \(context)")
                }
            }
        }
        for (key, values) in h.model.tables["Person"]!.objects {
            XCTAssertEqual(try person.find(primaryKey: values["id"]!), key, context)
        }
        XCTAssertNil(try person.find(primaryKey: .int(-12345)), context)
        let name = person.column(named: "name")!.key
        let nameIndex = try XCTUnwrap(person.index(on: [name]))
        let withPrefix = h.model.tables["Person"]!.objects.filter {
            if case .string(let text)? = $0.value["name"] { return text.hasPrefix("name-1") }
            return false
        }.keys.sorted()
        XCTAssertEqual(try person.lookup(nameIndex.key, prefix: "name-1").sorted(), withPrefix, context)
    }
}

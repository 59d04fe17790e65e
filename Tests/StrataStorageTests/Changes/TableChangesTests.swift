import StrataStorage
import StrataTestSupport
import XCTest

/// `Table.changes(since:)` and `Catalog.changedTables(since:)` against a brute-force comparison of every row.
final class TableChangesTests: XCTestCase {
    /// The columns of the randomized model: items with every kind of column, owners they link to.
    private struct Model {
        var item: TableKey
        var owner: TableKey
        var number: ColumnKey
        var flag: ColumnKey
        var score: ColumnKey
        var name: ColumnKey
        var payload: ColumnKey
        var tags: ColumnKey
        var ownerLink: ColumnKey
        var friends: ColumnKey
        var label: ColumnKey
    }

    private func makeModel(_ store: Store) throws -> Model {
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let owner = try catalog.createTable(named: "Owner")
        let label = try owner.addColumn(named: "label", type: .value(.string))
        let item = try catalog.createTable(named: "Item")
        let model = Model(
            item: item.key, owner: owner.key,
            number: try item.addColumn(named: "number", type: .value(.int), nullable: true),
            flag: try item.addColumn(named: "flag", type: .value(.bool)),
            score: try item.addColumn(named: "score", type: .value(.double)),
            name: try item.addColumn(named: "name", type: .value(.string), nullable: true),
            payload: try item.addColumn(named: "payload", type: .value(.binary), nullable: true),
            tags: try item.addColumn(named: "tags", type: .list(.int)),
            ownerLink: try item.addColumn(named: "owner", type: .value(.link), target: owner.key),
            friends: try item.addColumn(named: "friends", type: .list(.link), target: item.key),
            label: label)
        try catalog.flush()
        try writer.commit()
        return model
    }

    private func randomValue(_ column: ColumnKey, _ model: Model, _ random: inout SeededGenerator) -> StorageValue {
        switch column {
        case model.number: return random.below(5) == 0 ? .null : .int(Int64(random.below(20)) - 5)
        case model.flag: return .bool(random.below(2) == 0)
        case model.score: return .double(Double(random.below(8)) / 4)
        case model.name: return random.below(4) == 0 ? .null : .string("n\(random.below(30))")
        case model.payload:
            // Now and then longer than a cluster keeps inline, so long values in their own nodes are compared too.
            switch random.below(6) {
            case 0: return .null
            case 1: return .binary([UInt8](repeating: UInt8(random.below(3)), count: 1500))
            default: return .binary([UInt8(random.below(4))])
            }
        default: return .null
        }
    }

    /// Commits 1,300 items: a table of several clusters, so splits, merges and shared clusters all occur.
    private func insertManyItems(_ store: Store, _ model: Model) throws {
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let items = try XCTUnwrap(catalog.table(model.item))
        for index in 0..<1300 { _ = try items.insert([(model.number, .int(Int64(index % 17))), (model.name, .string("i\(index)"))]) }
        try catalog.flush()
        try writer.commit()
    }

    /// One random transaction of inserts, updates (some to the value already there), deletes (some in runs),
    /// list and link changes; returns how many objects it inserted, changed or deleted.
    /// With a `log`, the write notes its changes there as it makes them (``Catalog/changeLog``).
    private func randomTransaction(
        _ store: Store, _ model: Model, _ random: inout SeededGenerator, log: WriteChangeLog? = nil
    ) throws -> Int {
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        catalog.changeLog = log
        var deleted: [ObjectKey] = []
        guard let items = catalog.table(model.item), let owners = catalog.table(model.owner) else {
            throw StrataError.invalidArgument("the model's tables are missing")
        }
        var itemKeys = try items.keys()
        var ownerKeys = try owners.keys()
        let operations = random.below(30)
        var changed = 0
        for _ in 0..<operations {
            changed += 1
            switch random.below(log == nil ? 14 : 17) {
            case 0, 1, 13:
                let burst = random.below(8) == 0 ? 200 : 1
                for _ in 0..<burst {
                    var values: [(ColumnKey, StorageValue)] = []
                    for column in [model.number, model.flag, model.score, model.name, model.payload] where random.below(2) == 0 {
                        values.append((column, randomValue(column, model, &random)))
                    }
                    itemKeys.append(try items.insert(values))
                }
                changed += burst - 1
            case 2 where !itemKeys.isEmpty:
                let start = random.below(itemKeys.count)
                let run = random.below(10) == 0 ? min(300, itemKeys.count - start) : 1
                for key in itemKeys[start..<start + run] { try items.delete(key) }
                deleted += itemKeys[start..<start + run]
                itemKeys.removeSubrange(start..<start + run)
                changed += run - 1
            case 3...6 where !itemKeys.isEmpty:
                let key = itemKeys[random.below(itemKeys.count)]
                let column = [model.number, model.flag, model.score, model.name, model.payload][random.below(5)]
                let value = random.below(5) == 0 ? try items.value(key, column: column) : randomValue(column, model, &random)
                try items.set(key, column: column, to: value)
            case 7 where !itemKeys.isEmpty:
                let key = itemKeys[random.below(itemKeys.count)]
                if try random.below(2) == 0 || items.listCount(key, column: model.tags) == 0 {
                    try items.listAppend(key, column: model.tags, .int(Int64(random.below(9))))
                } else {
                    try items.listRemove(key, column: model.tags, at: 0)
                }
            case 8 where !itemKeys.isEmpty:
                let key = itemKeys[random.below(itemKeys.count)]
                let target = ownerKeys.isEmpty || random.below(4) == 0 ? StorageValue.null : .link(ownerKeys[random.below(ownerKeys.count)])
                try items.set(key, column: model.ownerLink, to: target)
            case 9 where !itemKeys.isEmpty:
                let key = itemKeys[random.below(itemKeys.count)]
                let count = try items.listCount(key, column: model.friends)
                if count > 0 && random.below(2) == 0 {
                    try items.listRemove(key, column: model.friends, at: random.below(count))
                } else {
                    try items.listAppend(key, column: model.friends, .link(itemKeys[random.below(itemKeys.count)]))
                }
            case 10:
                ownerKeys.append(try owners.insert([(model.label, .string("o\(random.below(5))"))]))
            case 11 where !ownerKeys.isEmpty:
                let index = random.below(ownerKeys.count)
                try owners.delete(ownerKeys.remove(at: index))
            case 12 where !ownerKeys.isEmpty:
                try owners.set(ownerKeys[random.below(ownerKeys.count)], column: model.label, to: .string("o\(random.below(5))"))
            case 14 where !itemKeys.isEmpty:
                // A batch, as a cascade deletes.
                let doomed = (0..<min(itemKeys.count, 1 + random.below(20))).map { _ in itemKeys[random.below(itemKeys.count)] }
                try items.delete(doomed, alongWith: nil)
                itemKeys.removeAll { doomed.contains($0) }
                deleted += doomed
            case 15 where !deleted.isEmpty:
                // An object deleted in this write inserted again under its key, with other values or the same.
                let key = deleted.remove(at: random.below(deleted.count))
                guard try !items.contains(key) else { continue }
                var values: [(ColumnKey, StorageValue)] = []
                for column in [model.number, model.flag, model.score, model.name] where random.below(2) == 0 {
                    values.append((column, randomValue(column, model, &random)))
                }
                itemKeys.append(try items.insert(values, key: key))
            case 16 where !itemKeys.isEmpty:
                let key = itemKeys[random.below(itemKeys.count)]
                try items.setUnindexedValues([.init(key: key, column: model.flag, value: randomValue(model.flag, model, &random))])
            default:
                changed -= 1
            }
        }
        try catalog.flush()
        try writer.commit()
        return changed
    }

    private func checkChanges(_ newer: Snapshot, since older: Snapshot, _ model: Model, round: Int) throws {
        var changedByBruteForce: [TableKey] = []
        for table in [model.owner, model.item] {
            let expected = try newer.bruteForceChanges(of: table, since: older)
            let found = try XCTUnwrap(newer.catalog.table(table)).changes(since: older.catalog.table(table))
            XCTAssertEqual(found, expected, "round \(round), table \(table), versions \(older.transaction.version)→\(newer.transaction.version)")
            if !expected.isEmpty { changedByBruteForce.append(table) }
        }
        // Every table with a change is listed; a listed table may still compare equal (a rewrite to equal values).
        let listed = Set(newer.catalog.changedTables(since: older.catalog))
        XCTAssertTrue(Set(changedByBruteForce).isSubset(of: listed), "round \(round): \(changedByBruteForce) not in \(listed)")
    }

    func testRandomCommitsReportWhatABruteForceComparisonFinds() throws {
        let store = try Store.inMemory(options: StoreOptions(durability: .none))
        defer { store.close() }
        let model = try makeModel(store)
        var random = SeededGenerator(seed: 0x5EED_C4A6)
        try insertManyItems(store, model)

        var recent: [Snapshot] = [try Snapshot(store)]
        var operations = 1300
        let rounds = ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 2000 : 80
        for round in 0..<rounds {
            operations += try randomTransaction(store, model, &random)
            let newest = try Snapshot(store)
            try checkChanges(newest, since: recent[recent.count - 1], model, round: round)
            // Several commits at once: against the oldest snapshot still pinned.
            if recent.count > 1 { try checkChanges(newest, since: recent[0], model, round: round) }
            recent.append(newest)
            if recent.count > 6 { recent.removeFirst() }
        }
        XCTAssertGreaterThan(operations, 2000, "inserts, updates and deletes made")
    }

    /// What a write notes as it makes its changes (``WriteChangeLog``) reports what comparing the versions does.
    func testAWriteChangeLogReportsWhatTheComparisonFinds() throws {
        let store = try Store.inMemory(options: StoreOptions(durability: .none))
        defer { store.close() }
        let model = try makeModel(store)
        var random = SeededGenerator(seed: 0x10C_C4A6)
        try insertManyItems(store, model)

        var older = try Snapshot(store)
        var nonEmpty = 0
        let rounds = ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 2000 : 80
        for round in 0..<rounds {
            let log = WriteChangeLog()
            _ = try randomTransaction(store, model, &random, log: log)
            let newer = try Snapshot(store)
            for table in [model.owner, model.item] {
                let newest = try XCTUnwrap(newer.catalog.table(table))
                let expected = try newest.changes(since: older.catalog.table(table))
                XCTAssertEqual(try log.changes(of: newest), expected, "round \(round), table \(table)")
                if !expected.isEmpty { nonEmpty += 1 }
                // The values as the write began, for objects it changed and objects it did not.
                let before = try XCTUnwrap(older.catalog.table(table))
                for key in try before.keys().prefix(50) + expected.deletions + expected.modifiedKeys {
                    for column in before.columns {
                        XCTAssertEqual(
                            try log.valueBefore(key, column: column.key, of: newest),
                            try before.value(key, column: column.key), "round \(round), \(key)")
                    }
                }
                for key in expected.insertions { XCTAssertFalse(try log.existedBefore(key, of: newest)) }
            }
            older = newer
        }
        XCTAssertGreaterThan(nonEmpty, rounds, "rounds with changes")
    }

    func testATableThatDidNotExistReportsEveryObjectInserted() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let before = try Snapshot(store)
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let table = try catalog.createTable(named: "New")
        let value = try table.addColumn(named: "value", type: .value(.int))
        let keys = try (0..<5).map { try table.insert([(value, .int($0))]) }
        try catalog.flush()
        try writer.commit()
        let after = try Snapshot(store)
        XCTAssertEqual(after.catalog.changedTables(since: before.catalog), [table.key])
        XCTAssertEqual(try XCTUnwrap(after.catalog.table(table.key)).changes(since: nil), TableChanges(insertions: keys))
        // And the other way round, the table is listed as changed when it is gone.
        let removal = try store.beginWrite()
        let removing = try Catalog(writer: removal)
        try removing.removeTable(named: "New")
        try removing.flush()
        try removal.commit()
        let gone = try Snapshot(store)
        XCTAssertEqual(gone.catalog.changedTables(since: after.catalog), [table.key])
    }

    func testAnUnchangedTableIsNotListedAndComparesEmpty() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let model = try makeModel(store)
        let before = try Snapshot(store)
        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        _ = try XCTUnwrap(catalog.table(model.owner)).insert([(model.label, .string("only owners change"))])
        try catalog.flush()
        try writer.commit()
        let after = try Snapshot(store)
        XCTAssertEqual(after.catalog.changedTables(since: before.catalog), [model.owner])
        XCTAssertTrue(try XCTUnwrap(after.catalog.table(model.item)).changes(since: before.catalog.table(model.item)).isEmpty)
    }

    func testAWriteTransactionComparesOnceFlushed() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let model = try makeModel(store)
        let seed = try store.beginWrite()
        let seeding = try Catalog(writer: seed)
        let first = try XCTUnwrap(seeding.table(model.item)).insert([(model.number, .int(1))])
        try seeding.flush()
        try seed.commit()
        let before = try Snapshot(store)
        let writer = try store.beginWrite()
        defer { writer.rollback() }
        let catalog = try Catalog(writer: writer)
        let items = try XCTUnwrap(catalog.table(model.item))
        try items.set(first, column: model.number, to: .int(2))
        XCTAssertThrowsError(try items.changes(since: before.catalog.table(model.item))) { error in
            XCTAssertTrue("\(error)".contains("flush()"), "\(error)")
        }
        try catalog.flush()
        let changes = try items.changes(since: before.catalog.table(model.item))
        XCTAssertEqual(changes, TableChanges(modifications: [first: [model.number]]))
    }

    func testAColumnAddedBetweenSnapshotsIsNotComparedButOthersAre() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let model = try makeModel(store)
        let seed = try store.beginWrite()
        let seeding = try Catalog(writer: seed)
        let items = try XCTUnwrap(seeding.table(model.item))
        let first = try items.insert([(model.number, .int(1))])
        let second = try items.insert([(model.number, .int(2))])
        try seeding.flush()
        try seed.commit()
        let before = try Snapshot(store)

        let writer = try store.beginWrite()
        let catalog = try Catalog(writer: writer)
        let changing = try XCTUnwrap(catalog.table(model.item))
        try changing.addColumn(named: "added", type: .value(.int), defaultValue: .int(9))
        try changing.set(second, column: model.number, to: .int(20))
        try catalog.flush()
        try writer.commit()
        let after = try Snapshot(store)

        let changes = try XCTUnwrap(after.catalog.table(model.item)).changes(since: before.catalog.table(model.item))
        XCTAssertEqual(changes, TableChanges(modifications: [second: [model.number]]))
        XCTAssertNil(changes.modifications[first])
    }

    func testComparingDifferentTablesIsRefused() throws {
        let store = try Store.inMemory()
        defer { store.close() }
        let model = try makeModel(store)
        let snapshot = try Snapshot(store)
        let items = try XCTUnwrap(snapshot.catalog.table(model.item))
        XCTAssertThrowsError(try items.changes(since: snapshot.catalog.table(model.owner)))
    }
}

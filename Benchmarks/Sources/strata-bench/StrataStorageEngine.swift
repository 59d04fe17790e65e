import Foundation
import StrataStorage

/// Strata's storage engine driven directly (catalog, tables, column scans): the floor the object layer builds on.
final class StrataStorageEngine: BenchmarkEngine {
    static let name = "Strata storage"

    private let store: Store
    private let columns: Columns
    /// The columns of `IndexedEmployee` (the same employees, `name` indexed) and its name index.
    private let indexedColumns: Columns
    private let nameIndex: IndexKey

    /// The column keys of the `Employee` table.
    private struct Columns {
        let id, name, age, hired, salary: ColumnKey
    }

    init(directory: URL, durability: BenchmarkDurability) throws {
        var options = StoreOptions()
        options.durability = durability == .full ? .full : .batched
        store = try Store.open(path: Self.path(in: directory), options: options)
        columns = try Self.prepareTable(named: "Employee", indexingName: false, in: store).0
        let (indexed, index) = try Self.prepareTable(named: "IndexedEmployee", indexingName: true, in: store)
        guard let index else { throw BenchmarkError("IndexedEmployee has no name index") }
        (indexedColumns, nameIndex) = (indexed, index)
    }

    private static func path(in directory: URL) -> String { directory.appendingPathComponent("bench.strata").path }

    /// Creates the `Employee` table (and `IndexedEmployee`, the same columns with an index on `name`) when missing;
    /// returns its columns, and the name index of the indexed one.
    private static func prepareTable(named tableName: String, indexingName: Bool, in store: Store) throws -> (Columns, IndexKey?) {
        let transaction = try store.beginWrite()
        let catalog = try Catalog(writer: transaction)
        if catalog.table(named: tableName) == nil {
            let table = try catalog.createTable(named: tableName)
            let id = try table.addColumn(named: "id", type: .value(.int))
            let name = try table.addColumn(named: "name", type: .value(.string))
            try table.addColumn(named: "age", type: .value(.int))
            try table.addColumn(named: "hired", type: .value(.bool))
            try table.addColumn(named: "salary", type: .value(.double))
            try table.setPrimaryKey(id)
            if indexingName { try table.addIndex(on: [name]) }
            try catalog.flush()
            try transaction.commit()
        } else {
            transaction.rollback()
        }
        let read = try store.beginRead()
        defer { read.end() }
        let readCatalog = try Catalog(reader: read)
        let table = try employees(in: readCatalog, named: tableName)
        let columns = try columns(of: table)
        guard indexingName else { return (columns, nil) }
        guard let index = table.index(on: [columns.name]) else { throw BenchmarkError("\(tableName) has no name index") }
        return (columns, index.key)
    }

    private static func employees(in catalog: Catalog, named name: String = "Employee") throws -> Table {
        guard let table = catalog.table(named: name) else { throw BenchmarkError("no \(name) table") }
        return table
    }

    private static func columns(of table: Table) throws -> Columns {
        func key(_ name: String) throws -> ColumnKey {
            guard let column = table.column(named: name) else { throw BenchmarkError("no column \(name)") }
            return column.key
        }
        return Columns(
            id: try key("id"), name: try key("name"), age: try key("age"), hired: try key("hired"),
            salary: try key("salary"))
    }

    func insertEmployees() throws {
        try insert(into: "Employee", columns: columns)
    }

    func insertIndexedEmployees() throws {
        try insert(into: "IndexedEmployee", columns: indexedColumns)
    }

    private func insert(into name: String, columns: Columns) throws {
        let transaction = try store.beginWrite()
        let catalog = try Catalog(writer: transaction)
        let table = try Self.employees(in: catalog, named: name)
        for i in 0..<EmployeeData.count {
            try table.insert([
                (columns.id, .int(Int64(i))),
                (columns.name, .string(EmployeeData.name(i))),
                (columns.age, .int(Int64(EmployeeData.age(i)))),
                (columns.hired, .bool(EmployeeData.hired(i))),
                (columns.salary, .double(EmployeeData.salary(i))),
            ])
        }
        try catalog.flush()
        try transaction.commit()
    }

    private func reading<R>(_ name: String = "Employee", _ body: (Table) throws -> R) throws -> R {
        let transaction = try store.beginRead()
        defer { transaction.end() }
        let catalog = try Catalog(reader: transaction)
        return try body(try Self.employees(in: catalog, named: name))
    }

    func countOlderHired() throws -> Int {
        try reading { table in
            var count = 0
            try table.forEachCluster { cluster in
                var matches = try cluster.intColumn(columns.age).matches(.greater, 50)
                matches.formIntersection(try cluster.boolColumn(columns.hired).matches(true))
                count += matches.setCount
                return true
            }
            return count
        }
    }

    func enumerateTwenties() throws -> (count: Int, salarySum: Double) {
        try enumerateTwenties(in: "Employee", columns: columns)
    }

    /// The plan the public API's planner picks for W3 on the indexed model too: the prefix matches a ninth of the
    /// table, so the column scan beats checking each of the index's candidates (see `ObjectQuery.plan`).
    func enumerateIndexedTwenties() throws -> (count: Int, salarySum: Double) {
        try enumerateTwenties(in: "IndexedEmployee", columns: indexedColumns)
    }

    private func enumerateTwenties(in name: String, columns: Columns) throws -> (count: Int, salarySum: Double) {
        try reading(name) { table in
            var count = 0
            var sum = 0.0
            let prefix = Array("name-1".utf8)
            try table.forEachCluster { cluster in
                let names = try cluster.stringColumn(columns.name)
                let salaries = try cluster.doubleColumn(columns.salary)
                let twenties = try cluster.intColumn(columns.age).matches(from: 20, through: 29)
                try names.matches(prefix: prefix, within: twenties).forEachSetRow { row in
                    count += try names.string(row) == nil ? 0 : 1
                    sum += salaries[row]
                }
                return true
            }
            return (count, sum)
        }
    }

    func lookUpIndexedSalaries(names: [String]) throws -> Double {
        try reading("IndexedEmployee") { table in
            var sum = 0.0
            for name in names {
                for key in try table.lookup(nameIndex, equal: [.string(name)]) {
                    sum += try table.double(key, column: indexedColumns.salary) ?? 0
                }
            }
            return sum
        }
    }

    func lookUpNames(ids: [Int]) throws -> Int {
        try reading { table in
            var total = 0
            for id in ids {
                guard let key = try table.find(primaryKey: .int(Int64(id))) else { continue }
                total += try table.string(key, column: columns.name)?.utf8.count ?? 0
            }
            return total
        }
    }

    func updateSalaries(ids: [Int]) throws -> Int {
        var changed = 0
        for (n, id) in ids.enumerated() {
            let transaction = try store.beginWrite()
            let catalog = try Catalog(writer: transaction)
            let table = try Self.employees(in: catalog)
            guard let key = try table.find(primaryKey: .int(Int64(id))) else {
                throw BenchmarkError("Strata W5: no employee \(id)")
            }
            try table.set(key, column: columns.salary, to: .double(Double(n)))
            try catalog.flush()
            try transaction.commit()
            changed += 1
        }
        return changed
    }

    func close() throws {
        try store.flush()
        store.close()
    }

    static func openAndCount(directory: URL) throws -> Int {
        let store = try Store.open(path: path(in: directory))
        defer { store.close() }
        let transaction = try store.beginRead()
        defer { transaction.end() }
        let catalog = try Catalog(reader: transaction)
        return try employees(in: catalog).count()
    }

    static func files(in directory: URL) -> [URL] {
        [directory.appendingPathComponent("bench.strata")]
    }
}

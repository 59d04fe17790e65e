import Foundation
import Strata

/// Strata through the API apps use: generated `Employee` models, `write`, `objects`, `object(forPrimaryKey:)`.
class StrataObjectEngine: BenchmarkEngine {
    class var name: String { "Strata" }
    /// The key the database is encrypted with (none here; `StrataEncryptedEngine` sets one).
    class var encryptionKey: Data? { nil }

    private let database: Database

    required init(directory: URL, durability: BenchmarkDurability) throws {
        database = try Database(configuration: Self.configuration(directory, durability))
    }

    private static func configuration(_ directory: URL, _ durability: BenchmarkDurability) -> Configuration {
        var configuration = Configuration(schema: Bench.self)
        configuration.fileURL = directory.appendingPathComponent("bench.strata")
        configuration.durability = durability == .full ? .full : .batched
        configuration.encryptionKey = encryptionKey
        return configuration
    }

    func insertEmployees() throws {
        try database.write {
            for i in 0..<EmployeeData.count {
                database.add(
                    Employee(
                        id: i, name: EmployeeData.name(i), age: EmployeeData.age(i), hired: EmployeeData.hired(i),
                        salary: EmployeeData.salary(i)))
            }
        }
    }

    func countOlderHired() throws -> Int {
        try database.objects(Employee.self).filter("age > 50 AND hired == true").count
    }

    func enumerateTwenties() throws -> (count: Int, salarySum: Double) {
        var count = 0
        var sum = 0.0
        let results = try database.objects(Employee.self)
            .filter("age >= 20 AND age < 30 AND name BEGINSWITH %@", "name-1")
        for employee in results {
            count += employee.name.isEmpty ? 0 : 1
            sum += employee.salary
        }
        return (count, sum)
    }

    func lookUpNames(ids: [Int]) throws -> Int {
        var total = 0
        for id in ids {
            total += database.object(ofType: Employee.self, forPrimaryKey: id)?.name.utf8.count ?? 0
        }
        return total
    }

    func updateSalaries(ids: [Int]) throws -> Int {
        var changed = 0
        for (n, id) in ids.enumerated() {
            try database.write {
                guard let employee = database.object(ofType: Employee.self, forPrimaryKey: id) else { return }
                employee.salary = Double(n)
                changed += 1
            }
        }
        return changed
    }

    func insertIndexedEmployees() throws {
        try database.write {
            for i in 0..<EmployeeData.count {
                database.add(
                    IndexedEmployee(
                        id: i, name: EmployeeData.name(i), age: EmployeeData.age(i), hired: EmployeeData.hired(i),
                        salary: EmployeeData.salary(i)))
            }
        }
    }

    func enumerateIndexedTwenties() throws -> (count: Int, salarySum: Double) {
        var count = 0
        var sum = 0.0
        let results = try database.objects(IndexedEmployee.self)
            .filter("age >= 20 AND age < 30 AND name BEGINSWITH %@", "name-1")
        for employee in results {
            count += employee.name.isEmpty ? 0 : 1
            sum += employee.salary
        }
        return (count, sum)
    }

    func lookUpIndexedSalaries(names: [String]) throws -> Double {
        var sum = 0.0
        let employees = database.objects(IndexedEmployee.self)
        for name in names {
            for employee in try employees.filter("name == %@", name) { sum += employee.salary }
        }
        return sum
    }

    func close() throws {
        database.invalidate()
    }

    static func openAndCount(directory: URL) throws -> Int {
        try Database(configuration: configuration(directory, .full)).objects(Employee.self).count
    }

    static func files(in directory: URL) -> [URL] {
        [directory.appendingPathComponent("bench.strata")]
    }
}

import Foundation

/// How hard a commit tries to reach the disk, compared like for like across engines:
/// Strata `.full` against SQLite `synchronous=FULL`, Strata `.batched` against `synchronous=NORMAL`.
enum BenchmarkDurability: String, CaseIterable, Sendable {
    case full
    case batched
}

/// One engine under test. Every method does the whole workload and returns something derived from the data
/// it read, so that the work cannot be skipped and both engines can be checked for the same answer.
protocol BenchmarkEngine {
    /// Short name printed in the report.
    static var name: String { get }

    /// Opens (creating) the engine's database in `directory`.
    init(directory: URL, durability: BenchmarkDurability) throws

    /// W1: insert `EmployeeData.count` employees in one transaction.
    func insertEmployees() throws

    /// W2: `count(age > 50 AND hired == true)`.
    func countOlderHired() throws -> Int

    /// W3: enumerate `age >= 20 AND age < 30 AND name BEGINSWITH "name-1"`, reading name and salary;
    /// returns the count and the sum of the salaries.
    func enumerateTwenties() throws -> (count: Int, salarySum: Double)

    /// W4: look each id up by primary key and read its name; returns the total length of the names.
    func lookUpNames(ids: [Int]) throws -> Int

    /// W5: one durable transaction per id, each setting that employee's salary; returns how many of the
    /// transactions changed a row (each must: every id exists).
    func updateSalaries(ids: [Int]) throws -> Int

    /// W1-indexed: insert the employees into the model whose `name` is indexed, in one transaction.
    func insertIndexedEmployees() throws

    /// W3-indexed: W3's query on the model whose `name` is indexed; returns the count and the salary sum.
    func enumerateIndexedTwenties() throws -> (count: Int, salarySum: Double)

    /// W3-lookup: one `name == %@` query per name on the indexed model, reading the salary; returns the sum.
    func lookUpIndexedSalaries(names: [String]) throws -> Double

    /// Closes the database so that the file can be measured and reopened cold.
    func close() throws

    /// W6: open the file written by W1 and return its employee count.
    static func openAndCount(directory: URL) throws -> Int

    /// The files this engine keeps in `directory`, whose sizes make W7.
    static func files(in directory: URL) -> [URL]
}

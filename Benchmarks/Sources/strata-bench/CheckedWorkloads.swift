import Foundation

/// Each workload's work on one engine, checked against the answer computed from `EmployeeData`, so that a
/// faster figure can never come from wrong or skipped work. `WorkloadRunner` times them, in the phases and in the
/// back-to-back `reads` processes of the API cost alike.
extension BenchmarkEngine {
    /// W2 once, checked.
    func checkedCountOlderHired() throws {
        let found = try countOlderHired()
        guard found == EmployeeData.expectedW2 else {
            throw BenchmarkError("\(Self.name) W2: \(found) ≠ \(EmployeeData.expectedW2)")
        }
    }

    /// W3 once, checked: the count of matches and the sum of their salaries (so that the salary is read), which
    /// W5's updates change (`afterUpdates`).
    func checkedEnumerateTwenties(afterUpdates: Bool = false) throws {
        let salarySum = afterUpdates ? EmployeeData.expectedW3SalarySumAfterUpdates : EmployeeData.expectedW3SalarySum
        try Self.checkTwenties(try enumerateTwenties(), salarySum: salarySum, workload: "W3")
    }

    /// W3-indexed once, checked as W3 is (nothing updates the indexed model).
    func checkedEnumerateIndexedTwenties() throws {
        try Self.checkTwenties(
            try enumerateIndexedTwenties(), salarySum: EmployeeData.expectedW3SalarySum, workload: "W3-indexed")
    }

    private static func checkTwenties(
        _ found: (count: Int, salarySum: Double), salarySum: Double, workload: String
    ) throws {
        guard found.count == EmployeeData.expectedW3 else {
            throw BenchmarkError("\(name) \(workload): \(found.count) matches ≠ \(EmployeeData.expectedW3)")
        }
        guard found.salarySum == salarySum else {
            throw BenchmarkError("\(name) \(workload): salary sum \(found.salarySum) ≠ \(salarySum)")
        }
    }

    /// W5 (or W5-batched) once, checked: every one of the transactions changed a row.
    func checkedUpdateSalaries(_ ids: [Int], workload: String) throws {
        let changed = try updateSalaries(ids: ids)
        guard changed == ids.count else {
            throw BenchmarkError("\(Self.name) \(workload): \(changed) of \(ids.count) updates changed a row")
        }
    }

    /// One batch of W4's lookups, checked against the total length of the names.
    func checkedLookUpNames(_ batch: LookupBatch) throws {
        let length = try lookUpNames(ids: batch.ids)
        guard length == batch.nameBytes else {
            throw BenchmarkError("\(Self.name) W4: read \(length) bytes of names, expected \(batch.nameBytes)")
        }
    }

    /// One batch of W3-lookup's queries, checked against the sum of the salaries.
    func checkedLookUpIndexedSalaries(_ batch: NameQueryBatch) throws {
        let sum = try lookUpIndexedSalaries(names: batch.names)
        guard sum == batch.salarySum else {
            throw BenchmarkError("\(Self.name) W3-lookup: salary sum \(sum) ≠ \(batch.salarySum)")
        }
    }
}

/// A tenth of W4's primary-key lookups, with the total length of the names they must read.
struct LookupBatch {
    let ids: [Int]
    let nameBytes: Int

    /// W4's 100,000 fixed-seed ids in ten batches.
    static let all: [LookupBatch] = tenths(of: EmployeeData.randomIDs(EmployeeData.lookupCount, seed: 42)).map {
        LookupBatch(ids: $0, nameBytes: $0.reduce(0) { $0 + EmployeeData.name($1).utf8.count })
    }
}

/// A tenth of W3-lookup's `name == %@` queries, with the sum of the salaries they must read.
struct NameQueryBatch {
    let names: [String]
    let salarySum: Double

    /// W3-lookup's 10,000 fixed-seed names in ten batches.
    static let all: [NameQueryBatch] = tenths(of: EmployeeData.randomIDs(EmployeeData.indexedLookupCount, seed: 99)).map {
        NameQueryBatch(names: $0.map(EmployeeData.name), salarySum: $0.reduce(0.0) { $0 + EmployeeData.salary($1) })
    }
}

/// W5's and W5-batched's fixed-seed ids (the same for every engine and run).
let updateIDs = EmployeeData.randomIDs(EmployeeData.updateCount, seed: 7)

/// `items` in ten batches of equal size (the workloads' counts are multiples of ten).
func tenths<Item>(of items: [Item]) -> [[Item]] {
    let size = items.count / 10
    return (0..<10).map { Array(items[$0 * size..<($0 + 1) * size]) }
}

/// How long `body` takes, in seconds.
func measure(_ body: () throws -> Void) throws -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

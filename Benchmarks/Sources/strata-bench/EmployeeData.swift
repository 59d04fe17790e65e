/// The data every workload runs on (docs/BENCHMARKS.md, "The data").
enum EmployeeData {
    /// W1's object count.
    static let count = 1_000_000
    /// W4's lookup count.
    static let lookupCount = 100_000
    /// W3-lookup's query count.
    static let indexedLookupCount = 10_000
    /// W5's transaction count.
    static let updateCount = 10_000

    static func name(_ i: Int) -> String { "name-\(i)" }
    static func age(_ i: Int) -> Int { i % 100 }
    static func hired(_ i: Int) -> Bool { i % 2 == 0 }
    static func salary(_ i: Int) -> Double { Double(i) * 1.5 }

    /// Matches of W2 (`age > 50 AND hired == true`) over `count` rows, computed, not assumed: once, on first use
    /// (a stored constant, not a computed property: the checks run inside the timed work, and computing the
    /// answer again there took as long as Strata's W3 itself).
    static let expectedW2 = (0..<count).lazy.filter { age($0) > 50 && hired($0) }.count

    /// Matches of W3 (`age >= 20 AND age < 30 AND name BEGINSWITH "name-1"`), computed once.
    static let expectedW3 = (0..<count).lazy.filter {
        age($0) >= 20 && age($0) < 30 && name($0).hasPrefix("name-1")
    }.count

    /// The sum of the salaries of W3's matches, computed once. Salaries are multiples of 0.5 well below 2^52, so
    /// every partial sum is exact in a `Double` and the total does not depend on the order the rows come in.
    static let expectedW3SalarySum = (0..<count).lazy.filter {
        age($0) >= 20 && age($0) < 30 && name($0).hasPrefix("name-1")
    }.reduce(0.0) { $0 + salary($1) }

    /// The same sum once W5 (and W5-batched, which sets the same salaries again) has run: an updated employee's
    /// salary is the index of its last update in `updateIDs`. The read processes of the API cost run then.
    static let expectedW3SalarySumAfterUpdates: Double = {
        var final: [Int: Double] = [:]
        for (n, id) in updateIDs.enumerated() { final[id] = Double(n) }
        return (0..<count).lazy.filter { age($0) >= 20 && age($0) < 30 && name($0).hasPrefix("name-1") }
            .reduce(0.0) { $0 + (final[$1] ?? salary($1)) }
    }()

    /// Fixed-seed pseudo-random ids in `0..<count` (a 64-bit LCG, the same for every engine and run).
    static func randomIDs(_ n: Int, seed: UInt64) -> [Int] {
        var state = seed
        return (0..<n).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(count))
        }
    }
}

/// The data of `strata-bench model` (docs/BENCHMARKS.md, "Embedded objects and sets"): person `i` has a name, an
/// address in one of `cityCount` cities, and `nicknamesPerPerson` distinct nicknames from a pool of `nicknamePool`,
/// spread by a fixed multiplicative hash so that neighbours do not share them. The same for every engine and run.
struct CensusData: Sendable {
    /// How many people are inserted.
    let count: Int

    static let cityCount = 100
    static let nicknamePool = 10_000
    static let nicknamesPerPerson = 5
    /// The nicknames and cities the queries ask for, in turn.
    static let queriedNicknames = [0, 1_234, 5_000, 7_777, 9_999].map(nickname)
    static let queriedCities = [0, 42, 99].map(city)

    static func nickname(_ n: Int) -> String { "nick-\(n)" }
    static func city(_ n: Int) -> String { "city-\(n)" }

    func name(_ i: Int) -> String { "person-\(i)" }
    func street(_ i: Int) -> String { "\(i) Main Street" }
    func cityNumber(_ i: Int) -> Int { Int(Self.mix(i, 0x9E37_79B9_7F4A_7C15) % UInt64(Self.cityCount)) }
    func city(_ i: Int) -> String { Self.city(cityNumber(i)) }

    /// Five distinct pool numbers: a hashed start, then steps of a fifth of the pool.
    func nicknameNumbers(_ i: Int) -> [Int] {
        let start = Int(Self.mix(i, 0xC2B2_AE3D_27D4_EB4F) % UInt64(Self.nicknamePool))
        let step = Self.nicknamePool / Self.nicknamesPerPerson
        return (0..<Self.nicknamesPerPerson).map { (start + $0 * step) % Self.nicknamePool }
    }

    func nicknames(_ i: Int) -> [String] { nicknameNumbers(i).map(Self.nickname) }

    /// The expected count of every queried nickname and city, computed once before any timing.
    func expectedCounts() -> [String: Int] {
        var nicknameCounts = [Int](repeating: 0, count: Self.nicknamePool)
        var cityCounts = [Int](repeating: 0, count: Self.cityCount)
        for i in 0..<count {
            for n in nicknameNumbers(i) { nicknameCounts[n] += 1 }
            cityCounts[cityNumber(i)] += 1
        }
        var expected: [String: Int] = [:]
        for n in 0..<Self.nicknamePool { expected[Self.nickname(n)] = nicknameCounts[n] }
        for n in 0..<Self.cityCount { expected[Self.city(n)] = cityCounts[n] }
        return expected
    }

    private static func mix(_ i: Int, _ multiplier: UInt64) -> UInt64 {
        let product = (UInt64(i) &+ 1) &* multiplier
        return product ^ (product >> 29)
    }
}

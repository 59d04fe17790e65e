import Foundation
import XCTest

@testable import Strata

/// Scans of ints stored in 8 bits (a cluster whose values span less than 256) test eight rows at a time; every
/// comparison and range must still select exactly the rows a row-by-row check selects, including the rows of a
/// cluster's last, partial group of eight and the nulls.
final class SmallIntScanTests: StaffTestCase {
    private var db: Database!
    private var ages: [Int] = []
    private var bonuses: [Int?] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        db = try openStaff()
        var generator = SplitMix(seed: 41)
        // 1,203 objects: several clusters, the last one not a multiple of eight rows.
        for index in 0..<1_203 {
            ages.append(Int(generator.next() % 256))
            bonuses.append(index % 7 == 0 ? nil : 100 + Int(generator.next() % 200))
        }
        try db.write {
            for (age, bonus) in zip(ages, bonuses) { db.add(Employee(age: age, bonus: bonus)) }
        }
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    func testEveryComparisonOfAnEightBitColumnSelectsWhatARowByRowCheckSelects() throws {
        let all = db.objects(Employee.self)
        for operand in [-1, 0, 1, 7, 8, 127, 128, 200, 254, 255, 256] {
            XCTAssertEqual(try all.filter("age == %@", operand).count, ages.filter { $0 == operand }.count, "== \(operand)")
            XCTAssertEqual(try all.filter("age != %@", operand).count, ages.filter { $0 != operand }.count, "!= \(operand)")
            XCTAssertEqual(try all.filter("age < %@", operand).count, ages.filter { $0 < operand }.count, "< \(operand)")
            XCTAssertEqual(try all.filter("age <= %@", operand).count, ages.filter { $0 <= operand }.count, "<= \(operand)")
            XCTAssertEqual(try all.filter("age > %@", operand).count, ages.filter { $0 > operand }.count, "> \(operand)")
            XCTAssertEqual(try all.filter("age >= %@", operand).count, ages.filter { $0 >= operand }.count, ">= \(operand)")
        }
    }

    func testRangesOfAnEightBitColumnSelectWhatARowByRowCheckSelects() throws {
        let all = db.objects(Employee.self)
        for (low, high) in [(0, 255), (20, 29), (0, 0), (255, 255), (100, 99), (-5, 3), (250, 400), (1, 254)] {
            let selected = try all.filter("age >= %@ AND age <= %@", low, high).map(\.age)
            XCTAssertEqual(selected, ages.filter { $0 >= low && $0 <= high }, "\(low)...\(high)")
        }
    }

    func testNullsOfAnEightBitColumnMatchOnlyNotEqual() throws {
        let all = db.objects(Employee.self)
        for operand in [99, 100, 150, 299, 300] {
            XCTAssertEqual(
                try all.filter("bonus != %@", operand).count, bonuses.filter { $0 != operand }.count, "!= \(operand)")
            XCTAssertEqual(
                try all.filter("bonus >= %@", operand).count,
                bonuses.filter { $0.map { $0 >= operand } ?? false }.count, ">= \(operand)")
        }
    }
}

/// A small seeded generator, so a failure can be replayed.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

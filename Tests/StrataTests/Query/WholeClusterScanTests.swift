import Foundation
import XCTest

@_spi(StrataGenerated) @testable import Strata

/// A count, a loop and a column aggregate over a whole table scan each cluster without a mask of every row: a
/// column condition's mask is used as the column view gives it, and an AND starts from its first term's. Each
/// must still select exactly the objects the predicate does, whatever kind the first term is (int, int range,
/// double or bool, with or without nulls that match), and whatever follows it.
final class WholeClusterScanTests: SixThousandEmployeesTestCase {
    /// One employee's values as the predicates below read them.
    private struct Row {
        let name: String
        let age: Int
        let hired: Bool
        let salary: Double
        let rating: Float?
        let bonus: Int?
    }

    /// Gives the employees varied `hired`, `rating` and `bonus` values, with nulls, and returns every row.
    private func variedRows() throws -> [Row] {
        try db.write {
            for (index, employee) in db.objects(Employee.self).enumerated() {
                employee.hired = index % 7 != 0
                employee.rating = index % 4 == 0 ? nil : Float(index % 3) * 0.75
                employee.bonus = index % 3 == 0 ? nil : index % 5
            }
        }
        return db.objects(Employee.self).map {
            Row(name: $0.name, age: $0.age, hired: $0.hired, salary: $0.salary, rating: $0.rating, bonus: $0.bonus)
        }
    }

    func testCountsLoopsAndSumsSelectWhatThePredicateDoesWhateverTheFirstTerm() throws {
        let rows = try variedRows()
        let cases: [(String, (Row) -> Bool)] = [
            ("age > 50 AND hired == true", { $0.age > 50 && $0.hired }),
            ("hired == false", { !$0.hired }),
            ("hired != true AND age >= 50", { !$0.hired && $0.age >= 50 }),
            ("bonus != 3 AND age >= 50", { $0.bonus != 3 && $0.age >= 50 }),
            ("bonus == 2 AND hired == true", { $0.bonus == 2 && $0.hired }),
            ("rating != 1.5 AND hired == false", { $0.rating != 1.5 && !$0.hired }),
            ("rating > 0.5 AND salary < 3000", { ($0.rating ?? -1) > 0.5 && $0.salary < 3_000 }),
            ("salary >= 1000 AND salary < 1500 AND age > 60", { $0.salary >= 1_000 && $0.salary < 1_500 && $0.age > 60 }),
            ("age BETWEEN {55, 70} AND salary < 3000", { (55...70).contains($0.age) && $0.salary < 3_000 }),
            ("age >= 50 AND name ENDSWITH '7'", { $0.age >= 50 && $0.name.hasSuffix("7") }),
            ("NOT (age >= 50) AND salary > 100", { $0.age < 50 && $0.salary > 100 }),
            ("age < 0 AND hired == true", { $0.age < 0 && $0.hired }),
            ("age >= 50 AND hired == true AND bonus == nil", { $0.age >= 50 && $0.hired && $0.bonus == nil }),
        ]
        for (format, matches) in cases {
            let expected = rows.filter(matches)
            XCTAssertEqual(try db.objects(Employee.self).filter(format).count, expected.count, format)
            var names: [String] = []
            for employee in try db.objects(Employee.self).filter(format) { names.append(employee.name) }
            XCTAssertEqual(names, expected.map(\.name), format)
            let sum: Double = try db.objects(Employee.self).filter(format).sum(ofProperty: "salary")
            XCTAssertEqual(sum, expected.reduce(0) { $0 + $1.salary }, format)
        }
    }
}

import ArgumentParser
import Foundation
import Observation
import Strata

/// `strata-bench tracking`: what Swift's Observation support costs a read loop (issue #29: reads outside
/// tracking must cost nothing measurable).
///
/// Writes `--count` employees, then times `--runs` rounds of a W3-like loop (every employee, reading `name` and
/// `salary`) in three states of one database: never read under tracking (property reads test a flag only),
/// armed by a tracked read (property reads ask Observation whether they are tracked, and are not), and inside
/// `withObservationTracking` (every object read registers its two properties and starts watching them; on the
/// first `--tracked` employees only, as a screen of a SwiftUI list would). Prints nanoseconds per object.
struct TrackingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking",
        abstract: "Per-object cost of a read loop outside and inside Observation tracking.")

    @Option(help: "Employees written and read.")
    var count = 200_000

    @Option(help: "Employees read inside withObservationTracking.")
    var tracked = 1_000

    @Option(help: "Rounds per state; the figures are medians.")
    var runs = 9

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-tracking-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration(schema: Bench.self)
        configuration.fileURL = directory.appendingPathComponent("tracking.strata")
        configuration.durability = .none
        let db = try Database(configuration: configuration)
        try db.write {
            for i in 0..<count {
                db.add(
                    Employee(
                        id: i, name: EmployeeData.name(i), age: EmployeeData.age(i), hired: EmployeeData.hired(i),
                        salary: EmployeeData.salary(i)))
            }
        }
        let unarmed = measure(db, limit: count)
        withObservationTracking { _ = db.objects(Employee.self) } onChange: {}  // arms the database
        let armed = measure(db, limit: count)
        let inside = (0..<max(1, runs)).map { _ in
            withObservationTracking { time(db, limit: tracked) } onChange: {}
        }.median ?? 0
        print("state                               ns/object (2 property reads)")
        print("never tracked (flag test only)      " + String(format: "%.1f", unarmed))
        print("armed, read outside tracking        " + String(format: "%.1f", armed))
        print("inside tracking (first \(tracked))      " + String(format: "%.1f", inside))
    }

    /// The median time per object of `runs` loops over the first `limit` employees.
    private func measure(_ db: Database, limit: Int) -> Double {
        (0..<max(1, runs)).map { _ in time(db, limit: limit) }.median ?? 0
    }

    /// One loop over the first `limit` employees reading `name` and `salary`, in nanoseconds per object.
    private func time(_ db: Database, limit: Int) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var seen = 0
        var salaries = 0.0
        var letters = 0
        for employee in db.objects(Employee.self) {
            salaries += employee.salary
            letters += employee.name.utf8.count
            seen += 1
            if seen == limit { break }
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        precondition(salaries > 0 && letters > 0, "the loop read nothing")
        return Double(elapsed) / Double(max(seen, 1))
    }
}

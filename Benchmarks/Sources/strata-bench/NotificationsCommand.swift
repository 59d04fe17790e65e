import ArgumentParser
import Foundation
import Strata

/// `strata-bench notifications`: how long a commit takes to reach an observer of a sorted result, and what 100
/// observers cost, at several result sizes, to show that the work follows the change, not the result size.
///
/// Each commit changes the salary (the sort key) of 10 random employees, so every change moves objects; the 100
/// observers watch 100 different queries (each leaves out one age), so none shares another's work. The
/// observers live on a database confined to a serial queue; the writer commits on the main thread with
/// `.batched` durability. Latency runs from `commitWrite` being called to the block starting.
struct NotificationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Commit-to-delivery latency of a sorted result with 10 changes per commit; cost of 100 observers.")

    @Option(parsing: .upToNextOption, help: "Result sizes to measure.")
    var sizes: [Int] = [10_000, 100_000, 1_000_000]

    @Option(help: "Commits measured per size.")
    var commits = 200

    @Option(help: "Observers of the same result for the fan-out figure.")
    var observers = 100

    func run() throws {
        print("objects     latency p50   latency p90   \(observers) observers p50   per observer   initial evaluation")
        for size in sizes {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-notes-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let figures = try NotificationRun(directory: directory, size: size).measure(commits: commits, observers: observers)
            print(
                String(size).padding(toLength: 12, withPad: " ", startingAt: 0)
                    + Self.ms(figures.latency.p50).padding(toLength: 14, withPad: " ", startingAt: 0)
                    + Self.ms(figures.latency.p90).padding(toLength: 14, withPad: " ", startingAt: 0)
                    + Self.ms(figures.fanOut).padding(toLength: 19, withPad: " ", startingAt: 0)
                    + Self.ms(figures.fanOut / Double(observers)).padding(toLength: 15, withPad: " ", startingAt: 0)
                    + Self.ms(figures.initial))
        }
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
}

/// One size: the file, the writer, the observers' queue and database.
private final class NotificationRun: @unchecked Sendable {
    struct Figures {
        var latency: (p50: Double, p90: Double)
        var fanOut: Double
        var initial: Double
    }

    private let size: Int
    private let writer: Database
    private let queue = DispatchQueue(label: "strata-bench observers")
    private let observerDatabase: Database
    private let delivered = DispatchSemaphore(value: 0)
    private var random = EmployeeData.randomIDs(1_000_000, seed: 7).makeIterator()

    init(directory: URL, size: Int) throws {
        self.size = size
        var configuration = Configuration(schema: Bench.self)
        configuration.fileURL = directory.appendingPathComponent("notifications.strata")
        configuration.durability = .batched
        let writer = try Database(configuration: configuration)
        try writer.write {
            for i in 0..<size {
                writer.add(Employee(id: i, name: EmployeeData.name(i), age: EmployeeData.age(i), hired: EmployeeData.hired(i),
                                    salary: EmployeeData.salary(i)))
            }
        }
        self.writer = writer
        let queue = self.queue
        observerDatabase = try queue.sync { try Database(configuration: configuration, queue: queue) }
    }

    func measure(commits: Int, observers: Int) throws -> Figures {
        // One observer: latency per commit.
        let clock = Clock()
        let (token, initial) = try observe(clock)
        var latencies: [Double] = []
        for _ in 0..<commits {
            let committed = try commitTenChanges(clock)
            delivered.wait()
            latencies.append(clock.deliveredAt - committed)
        }
        token.invalidate()
        // Many observers of the same result: the time until the last one has its change.
        var tokens: [NotificationToken] = []
        for index in 0..<observers { tokens.append(try observe(clock, excludingAge: index % 100).token) }
        var fanOuts: [Double] = []
        for _ in 0..<max(10, commits / 10) {
            let committed = try commitTenChanges(clock)
            for _ in 0..<observers { delivered.wait() }
            fanOuts.append(clock.deliveredAt - committed)
        }
        tokens.forEach { $0.invalidate() }
        latencies.sort()
        fanOuts.sort()
        return Figures(
            latency: (latencies[latencies.count / 2], latencies[latencies.count * 9 / 10]),
            fanOut: fanOuts[fanOuts.count / 2], initial: initial)
    }

    /// Registers one observer of every employee sorted by salary (or, for the fan-out, of those whose age is
    /// not `excludingAge`: 100 different queries, so that no two observers share their work); returns after its
    /// initial delivery, with the time the initial evaluation took.
    private func observe(_ clock: Clock, excludingAge: Int? = nil) throws -> (token: NotificationToken, initial: Double) {
        let started = clock.now()
        let token = try queue.sync {
            var results = observerDatabase.objects(Employee.self)
            if let excludingAge { results = try results.filter("age != %@", excludingAge) }
            return results.sorted(byKeyPath: "salary").observe { [delivered] change in
                if case .update(_, let deletions, let insertions, _) = change {
                    clock.deliveredAt = clock.now()
                    precondition(deletions.count == insertions.count)
                }
                delivered.signal()
            }
        }
        delivered.wait()
        return (token, clock.now() - started)
    }

    /// One commit that changes the sort key of 10 random employees; returns when the commit started (its
    /// changes made, `commitWrite` called), which latencies are measured from.
    private func commitTenChanges(_ clock: Clock) throws -> Double {
        writer.beginWrite()
        for _ in 0..<10 {
            let id = (random.next() ?? 0) % size
            writer.object(ofType: Employee.self, forPrimaryKey: id)?.salary = Double((random.next() ?? 0) % (size * 2))
        }
        let started = clock.now()
        try writer.commitWrite()
        return started
    }
}

/// Monotonic time, and when the last block ran.
private final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var delivered = 0.0
    var deliveredAt: Double {
        get { lock.withLock { delivered } }
        set { lock.withLock { delivered = newValue } }
    }

    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

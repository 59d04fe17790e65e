import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// The RealmResultsController's example, on Strata: unresolved tasks, sectioned by project, sorted by title, kept
/// only when not assigned to a bot, mapped to plain rows. Writes are plain writes (no `addNotified`); a table view
/// stand-in applies every delegate call and must always match the controller.
final class TaskBoardTests: XCTestCase {
    /// What the view shows of a task: a plain, thread-safe value.
    struct TaskRow: Equatable, Sendable {
        var id: Int
        var title: String
        var project: String

        init(_ task: TaskItem) {
            id = task.id
            title = task.title
            project = task.project?.name ?? ""
        }
    }

    private var directory: TemporaryDirectory!
    private var configuration: Configuration!
    /// The test thread's database, which writes.
    private var writer: Database!
    /// The controller's queue and its database.
    private let queue = DispatchQueue(label: "strata.task-board")
    private var reader: Database!
    private var controller: ResultsController<TaskItem, TaskRow>!
    private var table: SectionedTableModel<TaskRow>!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        configuration = Configuration(schema: Tasks.self)
            .scratch(at: directory.url.appendingPathComponent("tasks.strata"))
        writer = try Database(configuration: configuration)
    }

    override func tearDown() {
        queue.sync {
            controller = nil
            table = nil
            reader = nil
        }
        writer = nil
        directory = nil
    }

    /// Opens the controller on its queue, fetches, and puts a table view stand-in behind it. With `held`, the
    /// queue runs nothing after the fetch (the first delivery included) until `held` is signalled.
    private func startController(holdingQueueUntil held: DispatchSemaphore? = nil) throws {
        try queue.sync {
            if let held { queue.async { held.wait() } }
            reader = try Database(configuration: configuration, queue: queue)
            let request = ResultsRequest(
                TaskItem.self, predicate: "resolved == %@", arguments: [false],
                sortDescriptors: ["project.name", "title"])
            controller = ResultsController(
                request: request, in: reader, sectionKeyPath: "project.name", mapper: TaskRow.init,
                filter: { $0.assignee != "bot" })
            try controller.performFetch()
            table = SectionedTableModel(sections: controller.sections, describe: \.title)
            controller.delegate = table
        }
    }

    // MARK: - The example, step by step

    func testTheTaskBoardFollowsInsertsUpdatesMovesAndDeletions() throws {
        let (home, work) = try writer.write {
            let home = Project(id: 1, name: "Home")
            let work = Project(id: 2, name: "Work")
            writer.add(home)
            writer.add(work)
            writer.add(TaskItem(id: 1, title: "buy milk", resolved: false, assignee: "me", project: home))
            writer.add(TaskItem(id: 2, title: "fix roof", resolved: false, assignee: "me", project: home))
            writer.add(TaskItem(id: 3, title: "write report", resolved: false, assignee: "me", project: work))
            writer.add(TaskItem(id: 4, title: "old ticket", resolved: true, assignee: "me", project: work))
            writer.add(TaskItem(id: 5, title: "nightly build", resolved: false, assignee: "bot", project: work))
            return (home, work)
        }
        try startController()
        XCTAssertEqual(shown(), ["Home: buy milk, fix roof", "Work: write report"])
        XCTAssertEqual(queue.sync { controller.numberOfSections }, 2)
        XCTAssertEqual(queue.sync { controller.numberOfObjects(in: 0) }, 2)
        XCTAssertEqual(queue.sync { controller.object(at: IndexPath(row: 1, section: 0)) }.title, "fix roof")

        // An insert in the middle of a section.
        try writer.write { writer.add(TaskItem(id: 6, title: "call mum", resolved: false, assignee: "me", project: home)) }
        try waitUntilShown(["Home: buy milk, call mum, fix roof", "Work: write report"])
        XCTAssertEqual(lastBatch(), ["insert -> [0, 1] call mum"])

        // A change that keeps the task in place is an update; one that sorts it elsewhere a move.
        try writer.write { writer.object(ofType: TaskItem.self, forPrimaryKey: 6)!.title = "call dad" }
        try waitUntilShown(["Home: buy milk, call dad, fix roof", "Work: write report"])
        XCTAssertEqual(lastBatch(), ["update [0, 1] -> [0, 1] call dad"])
        try writer.write { writer.object(ofType: TaskItem.self, forPrimaryKey: 6)!.title = "water plants" }
        try waitUntilShown(["Home: buy milk, fix roof, water plants", "Work: write report"])
        XCTAssertEqual(lastBatch(), ["move [0, 1] -> [0, 2] water plants"])

        // Moving to another project moves between sections.
        try writer.write { writer.object(ofType: TaskItem.self, forPrimaryKey: 2)!.project = work }
        try waitUntilShown(["Home: buy milk, water plants", "Work: fix roof, write report"])
        XCTAssertEqual(lastBatch(), ["move [0, 1] -> [1, 0] fix roof"])

        // A new project's first task brings its section; resolving the last task of a project takes it away.
        try writer.write {
            writer.add(TaskItem(id: 7, title: "plan trip", resolved: false, assignee: "me",
                            project: Project(id: 3, name: "Travel")))
        }
        try waitUntilShown(["Home: buy milk, water plants", "Travel: plan trip", "Work: fix roof, write report"])
        XCTAssertEqual(lastBatch(), ["section insert 1 Travel", "insert -> [1, 0] plan trip"])
        try writer.write { writer.object(ofType: TaskItem.self, forPrimaryKey: 7)!.resolved = true }
        try waitUntilShown(["Home: buy milk, water plants", "Work: fix roof, write report"])
        XCTAssertEqual(lastBatch(), ["section delete 1 Travel", "delete [1, 0] -> plan trip"])

        // The filter closure: a task handed to the bot leaves, one handed back comes in.
        try writer.write {
            writer.object(ofType: TaskItem.self, forPrimaryKey: 3)!.assignee = "bot"
            writer.object(ofType: TaskItem.self, forPrimaryKey: 5)!.assignee = "me"
        }
        try waitUntilShown(["Home: buy milk, water plants", "Work: fix roof, nightly build"])

        // Renaming a project re-sections its tasks; deleting one leaves its tasks without a project (""), whose
        // section comes last: a nil link sorts after every value, as in Realm.
        try writer.write { home.name = "Zoo" }
        try waitUntilShown(["Work: fix roof, nightly build", "Zoo: buy milk, water plants"])
        try writer.write { writer.delete(work) }
        try waitUntilShown(["Zoo: buy milk, water plants", ": fix roof, nightly build"])

        // Deletions, down to nothing.
        try writer.write { writer.delete(writer.objects(TaskItem.self)) }
        try waitUntilShown([])
        XCTAssertEqual(queue.sync { table.problems }, [])
    }

    func testACommitBeforeTheFirstDeliveryIsReportedAsWhatItChanged() throws {
        try writer.write {
            let home = Project(id: 1, name: "Home")
            writer.add(TaskItem(id: 1, title: "buy milk", resolved: false, assignee: "me", project: home))
            writer.add(TaskItem(id: 2, title: "call mum", resolved: false, assignee: "me", project: home))
            writer.add(TaskItem(id: 3, title: "fix roof", resolved: false, assignee: "me", project: home))
        }
        // Hold the controller's queue so that its first delivery comes only after the next commit.
        let held = DispatchSemaphore(value: 0)
        try startController(holdingQueueUntil: held)
        try writer.write { writer.object(ofType: TaskItem.self, forPrimaryKey: 2)!.title = "call dad" }
        held.signal()
        try waitUntilShown(["Home: buy milk, call dad, fix roof"])
        // One update, not three: the two tasks nobody touched are not reloaded.
        XCTAssertEqual(lastBatch(), ["update [0, 1] -> [0, 1] call dad"])
    }

    func testASectionKeyPathThatIsNotTheFirstSortDescriptorIsRefused() throws {
        try queue.sync {
            let reader = try Database(configuration: configuration, queue: queue)
            let controller = ResultsController(
                request: ResultsRequest(TaskItem.self, sortDescriptors: ["title"]), in: reader,
                sectionKeyPath: "project.name")
            XCTAssertThrowsError(try controller.performFetch()) { error in
                XCTAssertTrue("\(error)".contains("must be the first sort descriptor"), "\(error)")
            }
        }
    }

    func testAControllerWhoseDatabaseHasNoQueueSaysWhyItCannotFollowChanges() throws {
        let configuration = self.configuration!
        // A plain thread runs no deliveries: the controller shows the fetch and says why nothing will follow.
        let message = try runOnNewThread { () -> String? in
            let database = try Database(configuration: configuration)
            let controller = ResultsController(request: ResultsRequest(TaskItem.self), in: database)
            try controller.performFetch()
            return controller.error.map { "\($0)" }
        }
        XCTAssertTrue(message?.contains("Pass a serial queue") == true, message ?? "no error")
    }

    func testAMalformedPredicateThrowsAtFetch() throws {
        try queue.sync {
            let reader = try Database(configuration: configuration, queue: queue)
            let controller = ResultsController(request: ResultsRequest(TaskItem.self, predicate: "title ==="), in: reader)
            XCTAssertThrowsError(try controller.performFetch())
        }
    }

    func testAnUnknownSortKeyPathThrowsAtFetch() throws {
        try queue.sync {
            let reader = try Database(configuration: configuration, queue: queue)
            let controller = ResultsController(
                request: ResultsRequest(TaskItem.self, sortDescriptors: ["project.nmae"]), in: reader)
            XCTAssertThrowsError(try controller.performFetch()) { error in
                XCTAssertTrue("\(error)".contains("cannot sort by 'project.nmae' of TaskItem"), "\(error)")
            }
        }
    }

    // MARK: - Random commits

    func testRandomCommitsKeepTheTableViewEqualToTheController() throws {
        var generator = SeededGenerator(seed: 0x7A5C_B0A2)
        try writer.write {
            for id in 1...4 { writer.add(Project(id: id, name: "project \(id)")) }
        }
        try startController()
        var nextTask = 1
        var nextProject = 100
        let rounds = ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == nil ? 300 : 6_000
        for round in 0..<rounds {
            // Up to three commits before looking: the ones the controller has not seen yet reach it coalesced.
            for _ in 0..<(1 + generator.below(3)) { try writer.write {
                let tasks = writer.objects(TaskItem.self)
                let projects = writer.objects(Project.self)
                for _ in 0..<(1 + generator.below(4)) {
                    switch generator.below(8) {
                    case 0, 1:
                        nextTask += 1
                        let project = projects.isEmpty || generator.below(6) == 0 ? nil : projects[generator.below(projects.count)]
                        writer.add(TaskItem(id: nextTask, title: "task \(generator.below(50))", resolved: generator.below(4) == 0,
                                        assignee: generator.below(5) == 0 ? "bot" : "me", project: project))
                    case 2 where !tasks.isEmpty:
                        writer.delete(tasks[generator.below(tasks.count)])
                    case 3 where !tasks.isEmpty:
                        tasks[generator.below(tasks.count)].title = "task \(generator.below(50))"
                    case 4 where !tasks.isEmpty:
                        tasks[generator.below(tasks.count)].resolved.toggle()
                    case 5 where !tasks.isEmpty:
                        let task = tasks[generator.below(tasks.count)]
                        task.assignee = task.assignee == "bot" ? "me" : "bot"
                    case 6 where !tasks.isEmpty && !projects.isEmpty:
                        tasks[generator.below(tasks.count)].project = projects[generator.below(projects.count)]
                    case 7 where !projects.isEmpty:
                        let project = projects[generator.below(projects.count)]
                        if generator.below(3) == 0 {
                            writer.delete(project)
                            nextProject += 1
                            writer.add(Project(id: nextProject, name: "project \(nextProject % 7)"))
                        } else {
                            project.name = "project \(generator.below(7))"
                        }
                    default:
                        break
                    }
                }
            } }
            try waitUntilShown(expected(), "round \(round)")
            XCTAssertEqual(queue.sync { table.problems }, [], "round \(round)")
        }
    }

    // MARK: - Helpers

    /// What the board must show, computed from every task by brute force.
    private func expected() -> [String] {
        writer.refresh()
        let rows = writer.objects(TaskItem.self)
            .filter { !$0.resolved && $0.assignee != "bot" }
            .map { (task: TaskItem) -> (project: String?, title: String, key: Int) in
                (task.project?.name, task.title, task.id)
            }
            .enumerated()
            .sorted { left, right in
                // A nil link (no project) sorts last, as in Realm; ties keep the table's order.
                let l = left.element, r = right.element
                if l.project != r.project {
                    guard let lp = l.project else { return false }
                    guard let rp = r.project else { return true }
                    return lp < rp
                }
                if l.title != r.title { return l.title < r.title }
                return left.offset < right.offset
            }
            .map(\.element)
        var sections: [(String, [String])] = []
        for row in rows {
            let name = row.project ?? ""
            if sections.last?.0 == name { sections[sections.count - 1].1.append(row.title) } else { sections.append((name, [row.title])) }
        }
        return sections.map { "\($0.0): \($0.1.joined(separator: ", "))" }
    }

    /// The controller's sections as text, read on its queue; the table view stand-in must agree.
    private func shown() -> [String] {
        queue.sync {
            let fromController = Self.describe(controller.sections.map { ($0.name, $0.objects) })
            let fromTable = Self.describe(table?.sections.map { ($0.name, $0.rows) } ?? [])
            return fromController == fromTable || table == nil ? fromController : ["controller: \(fromController)", "table: \(fromTable)"]
        }
    }

    private static func describe(_ sections: [(String, [TaskRow])]) -> [String] {
        sections.map { "\($0.0): \($0.1.map(\.title).joined(separator: ", "))" }
    }

    /// Waits (up to 20 s, then fails) until the controller and the table view stand-in show `expected`.
    private func waitUntilShown(_ expected: [String], _ context: String = "", file: StaticString = #filePath,
                                line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(20)
        while shown() != expected {
            guard Date() < deadline else {
                return XCTFail("never showed \(expected), shows \(shown()) \(context)", file: file, line: line)
            }
            usleep(1_000)
        }
    }

    private func lastBatch() -> [String] {
        queue.sync { table.lastBatch }
    }
}

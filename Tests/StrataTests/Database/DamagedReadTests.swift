import Foundation
import StrataTestSupport
import XCTest

@testable import Strata
@testable import StrataStorage

/// Reads of a file whose clusters are damaged (a byte flipped in every leaf of one table's tree, so that each
/// fails its checksum): the throwing reads of results, lists and linking objects throw
/// `StrataError.corruptFile` naming the file, observers get `.error`, and the reads that cannot throw stop the
/// program with a message naming the file, the object, the property and `strata verify FILE` (issue #22 item 3).
final class DamagedReadTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    // MARK: Making damaged files

    /// A configuration of `schema` over a new file in the test's directory.
    private func configuration<S: SchemaWithoutCustomMigrations>(_ schema: S.Type, _ name: String) -> Configuration {
        var configuration = Configuration(schema: schema)
        configuration.fileURL = directory.url.appendingPathComponent(name)
        return configuration
    }

    /// Fills the file with `fill`, commits `settle` (a change elsewhere), then flips one payload byte of every
    /// cluster leaf of `type`'s table that `settle` left alone, once the database is closed, so that reading any
    /// of them fails its checksum. Opening checks the nodes of the newest commit (and falls back to the previous
    /// version when one is torn), so the damage must lie outside it, as damage found later by a read does.
    private func damageClusters(
        of type: Object.Type, in configuration: Configuration, fill: (Database) throws -> Void,
        settle: (Database) throws -> Void
    ) throws {
        var leaves: [UInt64] = []
        var pageSize = 0
        do {
            // The database is released at the end of this block, which closes its store before the damage.
            let db = try Database(configuration: configuration)
            let model = try XCTUnwrap(db.schema.model(for: type))
            func currentLeaves() throws -> Set<UInt64> {
                var found = Set<UInt64>()
                try db.table(for: model).tree.forEachNode { ref, isLeaf in if isLeaf { found.insert(ref.page) } }
                return found
            }
            try fill(db)
            let filled = try currentLeaves()
            try settle(db)
            leaves = filled.intersection(try currentLeaves()).sorted()
            pageSize = db.store.pageSize
        }
        XCTAssertGreaterThan(leaves.count, 1, "the objects fill several clusters")
        let handle = try FileHandle(forUpdating: configuration.fileURL)
        defer { try? handle.close() }
        for leaf in leaves {
            let offset = UInt64(leaf) * UInt64(pageSize) + UInt64(NodeHeader.byteCount) + 5
            try handle.seek(toOffset: offset)
            var byte = try XCTUnwrap(handle.read(upToCount: 1)).first ?? 0
            byte ^= 0xFF
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data([byte]))
        }
    }

    /// A file of 3,000 notes whose Note clusters are damaged.
    private func damagedNotes() throws -> Configuration {
        let configuration = configuration(Notes.self, "notes.strata")
        try damageClusters(of: Note.self, in: configuration) { db in
            try db.write {
                for n in 0..<3_000 {
                    db.create(
                        Note.self, value: ["text": "note \(n) with a little text to fill the clusters", "writer": n % 7])
                }
                // Reaches notes through its list, without reading their clusters.
                let notebook = db.create(Notebook.self, value: ["title": "first notes"])
                notebook.notes.append(contentsOf: db.objects(Note.self).prefix(10))
            }
        } settle: { db in
            try db.write { _ = db.create(Note.self, value: ["text": "the last note", "writer": 0]) }
        }
        return configuration
    }

    /// Asserts that `body` throws `StrataError.corruptFile` naming `configuration`'s file.
    private func assertDamage<T>(
        _ configuration: Configuration, _ what: String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> T
    ) {
        do {
            _ = try body()
            XCTFail("\(what) did not report the damage", file: file, line: line)
        } catch StrataError.corruptFile(let path, _, _) {
            XCTAssertEqual(path, configuration.fileURL.path, "\(what) names the file", file: file, line: line)
        } catch {
            XCTFail("\(what) threw \(error), not corruptFile", file: file, line: line)
        }
    }

    // MARK: Throwing reads

    func testThrowingResultsReadsReportDamage() throws {
        let configuration = try damagedNotes()
        let db = try Database(configuration: configuration)
        let notes = db.objects(Note.self)
        assertDamage(configuration, "fetch()") { try notes.fetch() }
        assertDamage(configuration, "fetchCount()") { try notes.fetchCount() }
        assertDamage(configuration, "fetchFirst()") { try notes.fetchFirst() }
        assertDamage(configuration, "fetchSum") { try notes.fetchSum(ofProperty: "writer") as Int }
        assertDamage(configuration, "fetchMin") { try notes.fetchMin(ofProperty: "writer") as Int? }
        assertDamage(configuration, "fetchMax") { try notes.fetchMax(ofProperty: "writer") as Int? }
        assertDamage(configuration, "fetchAverage") { try notes.fetchAverage(ofProperty: "writer") }
        let filtered = try notes.filter("writer == 3")
        assertDamage(configuration, "filtered fetch()") { try filtered.fetch() }
        assertDamage(configuration, "filtered fetchCount()") { try filtered.fetchCount() }
        assertDamage(configuration, "filtered fetchSum") { try filtered.fetchSum(ofProperty: "writer") as Int }
        assertDamage(configuration, "sorted fetch()") { try notes.sorted(byKeyPath: "text").fetch() }
        // The whole file's check names the damage as well.
        assertDamage(configuration, "verify()") { try db.verify() }
    }

    func testThrowingReadsOfAHealthyFileAnswerAsTheNonThrowingOnes() throws {
        let db = try Database(configuration: configuration(Notes.self, "healthy.strata"))
        try db.write { for n in 0..<50 { db.create(Note.self, value: ["text": "n\(n)", "writer": n % 5]) } }
        let notes = try db.objects(Note.self).filter("writer >= 2").sorted(byKeyPath: "text")
        XCTAssertEqual(try notes.fetch().map(\.text), notes.map(\.text))
        XCTAssertEqual(try notes.fetchCount(), notes.count)
        XCTAssertEqual(try notes.fetchFirst()?.text, notes.first?.text)
        XCTAssertEqual(try notes.fetchSum(ofProperty: "writer") as Int, notes.sum(ofProperty: "writer") as Int)
        XCTAssertEqual(try notes.fetchMin(ofProperty: "writer") as Int?, 2)
        XCTAssertEqual(try notes.fetchMax(ofProperty: "writer") as Int?, 4)
        XCTAssertEqual(try notes.fetchAverage(ofProperty: "writer"), notes.average(ofProperty: "writer"))
        XCTAssertNil(try db.objects(Note.self).filter("writer > 10").fetchFirst())
    }

    func testThrowingListReadsReportDamageOfTheirObjects() throws {
        let configuration = configuration(Zoo.self, "zoo.strata")
        try damageClusters(of: Dog.self, in: configuration) { db in
            try db.write {
                let person = db.create(Person.self, value: ["id": 1, "name": "keeper", "age": 40])
                person.dogs.append(
                    contentsOf: (0..<1_000).map { Dog(name: "dog \($0) with a longer name", age: $0 % 15) })
            }
        } settle: { db in
            try db.write { _ = db.create(Keeper.self, value: ["name": "settles the file"]) }
        }
        let db = try Database(configuration: configuration)
        let dogs = try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1)).dogs
        assertDamage(configuration, "List.fetch()") { try dogs.fetch() }
        assertDamage(configuration, "List.fetchCount()") { try dogs.fetchCount() }
        assertDamage(configuration, "List.fetchSum") { try dogs.fetchSum(ofProperty: "age") as Int }
        assertDamage(configuration, "List.fetchMax") { try dogs.fetchMax(ofProperty: "age") as Int? }
        assertDamage(configuration, "filtered List.fetch()") { try dogs.filter("age > 3").fetch() }
    }

    func testThrowingLinkingObjectsReadsReportDamageOfTheirObjects() throws {
        let configuration = configuration(Zoo.self, "fans.strata")
        try damageClusters(of: Person.self, in: configuration) { db in
            try db.write {
                let dog = db.create(Dog.self, value: ["name": "star"])
                for id in 0..<1_000 {
                    db.add(Person(id: id, name: "fan \(id) of the star", age: id % 90, favourite: dog))
                }
            }
        } settle: { db in
            try db.write { _ = db.create(Keeper.self, value: ["name": "settles the file"]) }
        }
        let db = try Database(configuration: configuration)
        let fans = try XCTUnwrap(db.objects(Dog.self).first).fans
        assertDamage(configuration, "LinkingObjects.fetch()") { try fans.fetch() }
        assertDamage(configuration, "LinkingObjects.fetchCount()") { try fans.fetchCount() }
        assertDamage(configuration, "LinkingObjects.fetchAverage") { try fans.fetchAverage(ofProperty: "age") }
    }

    // MARK: Observers

    func testObserversOfDamagedResultsGetAnError() throws {
        let configuration = try damagedNotes()
        let queue = DispatchQueue(label: "damaged observer")
        let db = try queue.sync { try Database(configuration: configuration, queue: queue) }
        let reported = expectation(description: "the damage reaches the block")
        final class Seen: @unchecked Sendable { var changes: [String] = [] }
        let seen = Seen()
        let token = try queue.sync {
            try db.objects(Note.self).filter("writer == 2").observe { change in
                switch change {
                case .initial: seen.changes.append("initial")
                case .update: seen.changes.append("update")
                case .error(let error):
                    seen.changes.append("error: \(error)")
                    reported.fulfill()
                }
            }
        }
        wait(for: [reported], timeout: 20)
        queue.sync {
            XCTAssertEqual(seen.changes.count, 1, "\(seen.changes)")
            XCTAssertTrue(seen.changes.first?.contains(configuration.fileURL.path) == true, "\(seen.changes)")
            XCTAssertTrue(seen.changes.first?.contains("damaged") == true, "\(seen.changes)")
            withExtendedLifetime((token, db)) {}
        }
    }

    func testObserversOfDamagedLinkingObjectsGetAnError() throws {
        let configuration = configuration(Zoo.self, "observed-fans.strata")
        try damageClusters(of: Dog.self, in: configuration) { db in
            try db.write {
                let star = db.create(Dog.self, value: ["name": "star"])
                db.add(Person(id: 1, name: "fan", age: 30, favourite: star))
                for n in 0..<3_000 { db.create(Dog.self, value: ["name": "dog \(n) to fill the clusters"]) }
            }
        } settle: { db in
            try db.write { _ = db.create(Keeper.self, value: ["name": "settles the file"]) }
        }
        let queue = DispatchQueue(label: "damaged fans observer")
        let db = try queue.sync { try Database(configuration: configuration, queue: queue) }
        let reported = expectation(description: "the damage reaches the block")
        final class Seen: @unchecked Sendable { var errors: [String] = [] }
        let seen = Seen()
        let token = try queue.sync {
            // The person's cluster is intact: reaching the dog reads no Dog page; its linking objects do.
            let star = try XCTUnwrap(try XCTUnwrap(db.object(ofType: Person.self, forPrimaryKey: 1)).favourite)
            return star.fans.observe { change in
                if case .error(let error) = change {
                    seen.errors.append("\(error)")
                    reported.fulfill()
                }
            }
        }
        wait(for: [reported], timeout: 20)
        queue.sync {
            XCTAssertTrue(seen.errors.first?.contains(configuration.fileURL.path) == true, "\(seen.errors)")
            withExtendedLifetime((token, db)) {}
        }
    }

    func testChangesOfDamagedResultsEndWithAnError() async throws {
        let configuration = try damagedNotes()
        let queue = DispatchQueue(label: "damaged changes")
        let db = try queue.sync { try Database(configuration: configuration, queue: queue) }
        /// The stream, and what its loop received, handed to the task that iterates it.
        final class Loop: @unchecked Sendable {
            var changes: AsyncStream<CollectionChange<Results<Note>>>?
            var received: [String] = []
        }
        let loop = Loop()
        loop.changes = queue.sync { db.objects(Note.self).changes }
        let ended = expectation(description: "the sequence ends")
        let path = configuration.fileURL.path
        let task = _Concurrency.Task {
            guard let changes = loop.changes else { return }
            for await change in changes {
                switch change {
                case .initial, .update: loop.received.append("a change")
                case .error(let error):
                    if case .corruptFile(path, _, _)? = error as? StrataError {
                        loop.received.append("corruptFile")
                    } else {
                        loop.received.append("\(error)")
                    }
                }
            }
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: 30)
        task.cancel()
        XCTAssertEqual(loop.received, ["corruptFile"], "one error naming the file, then the end")
        queue.sync { withExtendedLifetime(db) {} }
    }

    // MARK: Reads that cannot throw

    /// What a child process that reads a damaged file through a non-throwing call printed as it stopped. The
    /// messages come from `fatalError`, which release builds keep (a `precondition`'s message they drop).
    private func stopMessage(_ arguments: [String]) throws -> String {
        let outcome = try BuiltExecutable(named: "strata-object-helper").run(arguments)
        XCTAssertFalse(outcome.output.contains("no failure"), "the damaged read did not stop: \(outcome.output)")
        XCTAssertNotEqual(outcome.status, 0)
        return outcome.errorOutput
    }

    func testAPropertyGetterStopsNamingTheFileObjectPropertyAndTheCommand() throws {
        let path = try damagedNotes().fileURL.path
        let message = try stopMessage(["read-damaged", path])
        for fragment in ["Note.text", "Note object", path, "is damaged", "strata verify \(path)", "fetch()"] {
            XCTAssertTrue(message.contains(fragment), "'\(fragment)' missing from:\n\(message)")
        }
        XCTAssertFalse(message.contains("was deleted"), "damage is not a deleted object:\n\(message)")
    }

    func testIteratingDamagedResultsStopsNamingTheFileAndTheCommand() throws {
        let path = try damagedNotes().fileURL.path
        let message = try stopMessage(["iterate-damaged", path])
        for fragment in ["Results<Note>", path, "is damaged", "strata verify \(path)"] {
            XCTAssertTrue(message.contains(fragment), "'\(fragment)' missing from:\n\(message)")
        }
    }

    /// The stop messages on damage paths are `fatalError`s (kept by release builds), never `precondition`s.
    func testDamageStopsUseFatalErrorSoReleaseBuildsKeepTheMessage() throws {
        let message = Database.fatalMessage(
            StrataError.corruptFile(path: StrataError.unnamedFile, location: "node #7", detail: "checksum"),
            while: "reading Note.text of Note object 3", path: "/tmp/x.strata")
        XCTAssertTrue(message.contains("'/tmp/x.strata' is damaged at node #7"), message)
        XCTAssertTrue(message.contains("strata verify /tmp/x.strata"), message)
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Strata")
        let row = try String(contentsOf: sources.appendingPathComponent("Database/ManagedRow.swift"), encoding: .utf8)
        XCTAssertFalse(row.contains("preconditionFailure("), "ManagedRow's read stops must keep their message")
        let database = try String(
            contentsOf: sources.appendingPathComponent("Database/Database.swift"), encoding: .utf8)
        XCTAssertTrue(database.contains("fatalError(Self.fatalMessage("), "Database.fatal must use fatalError")
    }
}

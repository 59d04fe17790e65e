import Foundation
import Strata

// A program with a top-level `await`, as a newcomer writes one: its top-level code runs on the main actor, which
// on Linux moves to another thread at the first `await` (the runtime calls `dispatchMain()`).
//
// `strata-main-actor-helper top-level PATH` opens the database in top-level code;
// `strata-main-actor-helper main-actor-function PATH` opens it inside an `@MainActor` async function.
// Each reads and writes across awaits, observes its results through `changes` and through `observe`, sees a
// commit made by another task, writes with `asyncWrite` while another task writes, and prints `ok NOTES` (the
// number of notes at the end).

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: strata-main-actor-helper top-level|main-actor-function PATH\n".utf8))
    exit(2)
}
let path = arguments[1]

func configuration() -> Configuration { configuration(path) }

nonisolated func configuration(_ path: String) -> Configuration {
    var configuration = Configuration(schema: Notes.self)
    configuration.fileURL = URL(fileURLWithPath: path)
    return configuration
}

/// Adds a note from a database of its own, in a task off the main actor.
@MainActor func addNoteElsewhere(_ text: String) async throws {
    let path = path
    try await Task.detached {
        let other = try Database(configuration: configuration(path))
        try other.write { other.create(Note.self, value: ["text": text, "writer": 2]) }
    }.value
}

/// Uses `db` across awaits on the main actor: writes, reads, and waits for notifications of another task's commit.
@MainActor func exercise(_ db: Database) async throws -> Int {
    try db.write { db.create(Note.self, value: ["text": "before the first await"]) }
    try await Task.sleep(nanoseconds: 5_000_000)
    try db.write { db.create(Note.self, value: ["text": "after the first await"]) }
    let notes = db.objects(Note.self)

    // A block observer, delivered on the main queue.
    let observed = AsyncStream<Int>.makeStream()
    let token = notes.observe { change in
        if case .update(let results, _, _, _) = change { observed.continuation.yield(results.count) }
    }
    var updates = notes.changes.makeAsyncIterator()
    guard case .initial = await updates.next(isolation: MainActor.shared) else {
        throw StrataError.invalidArgument("no initial results")
    }
    try await addNoteElsewhere("from another task")
    guard case .update(let results, _, let insertions, _) = await updates.next(isolation: MainActor.shared),
        insertions.count == 1,
        results.count == 3
    else { throw StrataError.invalidArgument("no update for the other task's note") }
    var counts = observed.stream.makeAsyncIterator()
    guard await counts.next() == 3 else { throw StrataError.invalidArgument("the observer saw no update") }
    token.invalidate()
    // An async write on the main actor, while a task elsewhere holds the writer for a moment: it waits suspended
    // (the main actor stays free), then runs its block on the main actor.
    let holding = AsyncStream<Void>.makeStream()
    let holder = Task.detached {
        let other = try Database(configuration: configuration(path))
        try other.write {
            holding.continuation.yield()
            usleep(50_000)
        }
    }
    var held = holding.stream.makeAsyncIterator()
    _ = await held.next()
    let text = try await db.asyncWrite { () -> String in
        MainActor.assertIsolated("asyncWrite ran its block off the main actor")
        return db.create(Note.self, value: ["text": "at the end"]).text
    }
    try await holder.value
    guard text == "at the end" else { throw StrataError.invalidArgument("asyncWrite returned '\(text)'") }
    return notes.count
}

@MainActor func openInsideAMainActorFunction() async throws -> Int {
    let db = try Database(configuration: configuration())
    try await Task.sleep(nanoseconds: 1_000_000)
    return try await exercise(db)
}

do {
    switch arguments[0] {
    case "top-level":
        let db = try Database(configuration: configuration())
        print("ok \(try await exercise(db))")
    case "main-actor-function":
        print("ok \(try await openInsideAMainActorFunction())")
    default:
        throw StrataError.invalidArgument("unknown program shape '\(arguments[0])'")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

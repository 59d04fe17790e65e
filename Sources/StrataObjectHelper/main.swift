import Foundation
import Strata

/// The jobs the object-layer tests run in a child process: `strata-object-helper <command> <database path> …`.
///
/// - `misuse KIND PATH`: makes the mistake KIND (`wrong-thread`, `wrong-thread-read`, `wrong-task`,
///   `wrong-actor`, `write-outside`, `nested-write`, `read-only-write`, `read-deleted`) so that the test can check the message the program stops
///   with.
/// - `add-notes PATH WRITER COUNT`: adds COUNT notes with `auto` primary keys, one write each, then prints
///   `added COUNT`.
/// - `edit-note PATH ID PROPERTY VALUE`: sets the `text` (or, for any other PROPERTY, the `writer`) of note ID in
///   one write, then prints `edited ID` (the observation-tracking tests).
/// - `read-damaged PATH`: reads the text of the first note of the first notebook through the property getter, which
///   cannot throw, so that the test can check the message a damaged file stops the program with (the message is
///   a `fatalError`'s, which release builds keep).
/// - `iterate-damaged PATH`: iterates every note through the non-throwing `Results` API, likewise.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data(("usage: strata-object-helper misuse KIND PATH | add-notes PATH WRITER COUNT | "
        + "edit-note PATH ID PROPERTY VALUE | read-damaged PATH | iterate-damaged PATH\n").utf8))
    exit(2)
}

/// Hides a value from the compiler's sendability checks, as careless code might.
final class Smuggled<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A database handed between tasks behind the compiler's back.
final class Holder: @unchecked Sendable {
    var database: Database?
}

/// An actor that opens a database confined to itself.
actor Owner {
    /// Opens it and leaves it in `holder`, behind the compiler's back (it refuses to return it from the actor).
    func open(_ path: String, into holder: Holder) throws {
        var configuration = Configuration(schema: Notes.self)
        configuration.fileURL = URL(fileURLWithPath: path)
        holder.database = try Database(configuration: configuration, actor: self)
    }
}

func open(_ path: String, readOnly: Bool = false) throws -> Database {
    var configuration = Configuration(schema: Notes.self)
    configuration.fileURL = URL(fileURLWithPath: path)
    configuration.readOnly = readOnly
    return try Database(configuration: configuration)
}

do {
    switch arguments[0] {
    case "misuse" where arguments.count >= 3:
        let path = arguments[2]
        if arguments[1] == "read-only-write" {
            // A store is opened once per process: create the file, let go of it, then reopen it read-only.
            try open(path).write {}
        }
        let db = try open(path, readOnly: arguments[1] == "read-only-write")
        switch arguments[1] {
        case "wrong-thread":
            // The compiler refuses to send a Database to another thread; code that hides it behind
            // @unchecked Sendable is what the runtime check is for.
            let smuggled = Smuggled(db)
            let thread = Thread { _ = smuggled.value.objects(Note.self).count }
            thread.start()
            Thread.sleep(forTimeInterval: 10)
        case "wrong-thread-read":
            // An object read on its own thread first, so that it holds its table at the current version: the
            // quick path of a property read must still check the thread.
            try db.write { db.create(Note.self, value: ["text": "a"]) }
            guard let note = Array(db.objects(Note.self)).first else { break }
            _ = note.text
            let smuggled = Smuggled(note)
            let thread = Thread { _ = smuggled.value.text }
            thread.start()
            Thread.sleep(forTimeInterval: 10)
        case "wrong-task":
            // A database opened inside a task belongs to that task (whatever threads it runs on); another task
            // that reaches it through @unchecked Sendable code may not use it.
            let opened = DispatchSemaphore(value: 0)
            let holder = Holder()
            _Concurrency.Task.detached {
                holder.database = try? open(path)
                opened.signal()
            }
            opened.wait()
            _Concurrency.Task.detached { _ = holder.database?.objects(Note.self).count }
            Thread.sleep(forTimeInterval: 10)
        case "wrong-actor":
            // A database confined to an actor, used from a task outside it.
            let owner = Owner()
            let holder = Holder()
            let opened = DispatchSemaphore(value: 0)
            _Concurrency.Task.detached {
                try? await owner.open(path, into: holder)
                opened.signal()
            }
            opened.wait()
            _Concurrency.Task.detached { _ = holder.database?.objects(Note.self).count }
            Thread.sleep(forTimeInterval: 10)
            withExtendedLifetime(owner) {}
        case "write-outside":
            let note = try db.write { db.create(Note.self, value: ["text": "a"]) }
            note.text = "b"
        case "nested-write":
            db.beginWrite()
            db.beginWrite()
        case "read-only-write":
            db.beginWrite()
        case "read-deleted":
            let note = try db.write { db.create(Note.self, value: ["text": "a"]) }
            try db.write { db.delete(note) }
            print(note.text)
        default:
            throw StrataError.invalidArgument("unknown misuse '\(arguments[1])'")
        }
        print("no failure")
    case "add-notes" where arguments.count >= 4:
        let db = try open(arguments[1])
        let writer = Int(arguments[2]) ?? 0
        let count = Int(arguments[3]) ?? 0
        for n in 0..<count {
            try db.write { db.create(Note.self, value: ["text": "note \(n)", "writer": writer]) }
        }
        print("added \(count)")
    case "edit-note" where arguments.count >= 5:
        let db = try open(arguments[1])
        guard let id = Int(arguments[2]), let note = db.object(ofType: Note.self, forPrimaryKey: id) else {
            throw StrataError.invalidArgument("no note \(arguments[2]) in \(arguments[1])")
        }
        try db.write {
            switch arguments[3] {
            case "text": note.text = arguments[4]
            default: note.writer = Int(arguments[4]) ?? 0
            }
        }
        print("edited \(id)")
    case "read-damaged":
        let db = try open(arguments[1])
        // Reached through the notebook's list, so that the getter is the first read of the note's cluster.
        guard let note = db.objects(Notebook.self).first?.notes.first else {
            throw StrataError.invalidArgument("no notebook with notes in \(arguments[1])")
        }
        print("read \(note.text.count) characters")
        print("no failure")
    case "iterate-damaged":
        let db = try open(arguments[1])
        var characters = 0
        for note in db.objects(Note.self) { characters += note.text.count }
        print("read \(characters) characters")
        print("no failure")
    default:
        throw StrataError.invalidArgument("unknown command '\(arguments[0])'")
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

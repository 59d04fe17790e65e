import Foundation
import Strata

// A synchronous program that opens a database, observes it and then calls `dispatchMain()`, as the notification
// guide recommends for command-line programs. On Linux the main queue then runs on another thread than the one
// the program started on.
//
// `strata-dispatch-main-helper PATH`: observes its notes, commits one from another thread, and in the update
// delivered on the main queue reads and writes the database again, then prints `ok NOTES` and exits.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: strata-dispatch-main-helper PATH\n".utf8))
    exit(2)
}

let path = arguments[0]

enum Program {
    static func configuration(_ path: String) -> Configuration {
        var configuration = Configuration(schema: Notes.self)
        configuration.fileURL = URL(fileURLWithPath: path)
        return configuration
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        exit(1)
    }
}

do {
    let db = try Database(configuration: Program.configuration(path))
    try db.write { db.create(Note.self, value: ["text": "on the main thread"]) }
    let notes = db.objects(Note.self)
    var token: NotificationToken?
    token = notes.observe { change in
        switch change {
        case .initial:
            Thread.detachNewThread {
                do {
                    let other = try Database(configuration: Program.configuration(path))
                    try other.write { other.create(Note.self, value: ["text": "from another thread", "writer": 2]) }
                } catch {
                    Program.fail("\(error)")
                }
            }
        case .update(let results, _, let insertions, _):
            guard insertions.count == 1, results.count == 2 else { Program.fail("unexpected update \(insertions)") }
            do {
                try db.write { db.create(Note.self, value: ["text": "on the main queue"]) }
            } catch {
                Program.fail("\(error)")
            }
            token?.invalidate()
            print("ok \(notes.count)")
            exit(0)
        case .error(let error):
            Program.fail("\(error)")
        }
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + 60) { Program.fail("no update within 60 s") }
    dispatchMain()
} catch {
    Program.fail("\(error)")
}

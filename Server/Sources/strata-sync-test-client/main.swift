import Foundation
import Strata

// A sync client in a process of its own, for the tests that kill a client (Tests/StrataSyncClientTests,
// SyncClientKillTests): opens the Syncbook file at `file` syncing with `server` as `token`'s user, lets its session
// download and apply, and prints the download cursor (the change-log position applied) every 10 ms until killed.
//
//     strata-sync-test-client FILE SERVER-URL TOKEN

let arguments = CommandLine.arguments
guard arguments.count == 4, let server = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: strata-sync-test-client FILE SERVER-URL TOKEN\n".utf8))
    exit(2)
}
var configuration = Configuration(schema: Syncbook.self)
configuration.fileURL = URL(fileURLWithPath: arguments[1])
// A killed process loses nothing the kernel has (no fsync needed); a power cut is another test.
configuration.durability = .none
var sync = SyncConfiguration(server: server, token: arguments[3])
sync.downloadWait = 1
sync.maximumBackoff = 0.5
sync.requestTimeout = 5
configuration.sync = sync
let queue = DispatchQueue(label: "strata-sync-test-client")
do {
    let database = try queue.sync { try Database(configuration: configuration, queue: queue) }
    guard let session = database.syncSession else { throw SyncError(status: nil, message: "no sync session") }
    while true {
        FileHandle.standardOutput.write(Data("\(session.progress.downloadedThrough)\n".utf8))
        Thread.sleep(forTimeInterval: 0.01)
    }
} catch {
    FileHandle.standardError.write(Data("strata-sync-test-client: \(error)\n".utf8))
    exit(1)
}

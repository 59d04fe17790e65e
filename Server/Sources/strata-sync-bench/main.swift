import Foundation
import Hummingbird
import JWTKit
import Logging
import ServiceLifecycle
import Strata
import StrataSyncServer

// strata-sync-bench: Strata devices (each its own file and sync session) commit one-object changes through an
// in-process `strata-sync` server into PostgreSQL. Prints the throughput (changes acknowledged into PostgreSQL per
// second, and changes applied on an observing device per second) and the latency from a commit on one device to
// the notification on another (p50, p99). docs/BENCHMARKS.md, "Sync", compares it with pgbench's inserts per
// second on the same PostgreSQL.
//
// Two shapes (BenchMode):
// - per user (the default, the common deployment): `--clients` users, one device each, under an `owner` rule, so
//   each device receives its own user's changes only. The observer is a second device of user 0: the latency is
//   from a commit on user 0's first device to the notification on its second, while the other users load the
//   server.
// - `--shared`: every device is the same user and the model is `shared: readWrite`, so every device downloads and
//   applies every other device's changes, and the observer sees them all.
//
// `--rate N` paces each device at N commits per second, the devices' commits spread evenly over each period (device
// i starts i / (clients × N) s late; `--lockstep` makes every device's nth commit at the same instant, as runs before
// that option did); without it every device commits as fast as it can, and the latency then mostly measures the
// queue of changes committed faster than they get through.
//
// `--offline` commits everything with the devices' sessions paused, then resumes them: the throughput into PostgreSQL
// is then the server's and PostgreSQL's alone (the devices' commits, which a real deployment runs on the devices,
// do not compete for the same cores), and the latency includes the time offline.
//
//   swift run -c release strata-sync-bench [--postgres URL] [--clients 20] [--changes 1000] [--shared] [--rate N]
//       [--lockstep] [--offline] [--keep-schema]
//   swift run -c release strata-sync-bench --device-cost 20000    (a device's commits, sync off and on, no server)

let options = BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
if options.deviceCost > 0 {
    try DeviceCost.run(commits: options.deviceCost)
    exit(0)
}
var logger = Logger(label: "strata-sync-bench")
logger.logLevel = .error

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let key = Array("strata-sync-bench key, 32 bytes or more".utf8)
let keyFile = directory.appendingPathComponent("key.txt").path
try Data(key).write(to: URL(fileURLWithPath: keyFile))
let rulesFile = directory.appendingPathComponent("rules.yaml").path
try "models:\n  Reading: \(options.mode.rule)\n".write(toFile: rulesFile, atomically: true, encoding: .utf8)
let schemaFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Schemas/strata-sync-bench").path
let benchSchema = BenchSchema()
let databaseSchema = benchSchema.name

var configuration = SyncServerConfiguration(
    schemaPaths: [schemaFolder], postgresURL: options.postgres, databaseSchema: databaseSchema, jwtKeyFile: keyFile,
    rulesFile: rulesFile, port: options.port)
configuration.uploadGroups = options.uploadGroups
let app = try await SyncServer.application(configuration, logger: logger)
// A service group of its own, stopped gracefully when the run ends (cancelling the task would have the server log
// its shutdown as errors).
let serverGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
let serverTask = Task { try await serverGroup.run() }
let server = URL(string: "http://127.0.0.1:\(options.port)")!
try await waitUntilHealthy(server)

let keys = JWTKeyCollection()
await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
var signed: [String: String] = [:]
for index in 0..<options.clients {
    let user = options.mode.user(ofDevice: index)
    if signed[user] == nil {
        signed[user] = try await keys.sign(
            BenchClaims(sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(3600))))
    }
}
let tokens = signed

func configuration(_ name: String, user: String, offline: Bool = false) -> Configuration {
    var configuration = Configuration(schema: Bench.self)
    configuration.fileURL = directory.appendingPathComponent("\(name).strata")
    configuration.durability = .none
    var sync = SyncConfiguration(server: server, token: tokens[user]!)
    sync.downloadWait = 25
    sync.startsImmediately = !offline
    sync.uploadsAhead = options.uploadsAhead
    configuration.sync = sync
    return configuration
}

// The observing device (user 0's second device): the latency of every reading it is notified of, from its commit
// (its `value`, in microseconds).
let observedUser = options.mode.user(ofDevice: 0)
let expected = options.mode.observedChanges(clients: options.clients, changes: options.changes)
let observerQueue = DispatchQueue(label: "observer")
let latencies = LatencyLog()
let observer = try observerQueue.sync {
    try Database(configuration: configuration("observer", user: observedUser), queue: observerQueue)
}
let observed = ObservedResults()
// With STRATA_SYNC_TRACE=1 the sessions and the server write their steps' timestamps on standard error; the observer
// adds its notifications (docs/SYNC.md, "Performance").
let traced = ProcessInfo.processInfo.environment["STRATA_SYNC_TRACE"] == "1"
let notificationToken = observerQueue.sync {
    observer.objects(Reading.self).observe { change in
        guard case .update(let results, _, let insertions, _) = change else { return }
        let now = microseconds()
        for index in insertions { latencies.add(now - results[index].value) }
        if traced {
            for index in insertions {
                FileHandle.standardError.write(
                    Data("sync-trace \(now) observer notified of the commit at \(results[index].value)\n".utf8))
            }
        }
        observed.count = results.count
    }
}

let devices = try (0..<options.clients).map { index -> Device in
    let queue = DispatchQueue(label: "device \(index)")
    let user = options.mode.user(ofDevice: index)
    let database = try queue.sync {
        try Database(configuration: configuration("device\(index)", user: user, offline: options.offline), queue: queue)
    }
    return Device(index: index, user: user, database: database, queue: queue)
}
print("strata-sync-bench: \(options.summary), PostgreSQL schema \(databaseSchema)")
let start = Date()
try await withThrowingTaskGroup(of: Void.self) { group in
    for device in devices {
        group.addTask {
            try await device.commit(
                options.changes, rate: options.rate, from: start, offset: options.offset(ofDevice: device.index))
        }
    }
    try await group.waitForAll()
}
let committed = Date().timeIntervalSince(start)
// Offline, the devices' sessions start now: the time into PostgreSQL counts from here.
let synced = Date()
if options.offline {
    for device in devices { device.queue.sync { device.database.syncSession! }.resume() }
}
for device in devices {
    let session = device.queue.sync { device.database.syncSession! }
    while true {
        do {
            try await session.waitForUpload()
            break
        } catch {
            FileHandle.standardError.write(Data("upload retried after: \(error)\n".utf8))
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
let uploaded = Date().timeIntervalSince(options.offline ? synced : start)
while observed.count < expected, Date().timeIntervalSince(start) < 600 {
    try await Task.sleep(for: .milliseconds(5))
}
let delivered = Date().timeIntervalSince(options.offline ? synced : start)
observerQueue.sync { notificationToken.invalidate() }

let total = options.clients * options.changes
let sorted = latencies.values.sorted()
func percentile(_ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
}
let commitRate = Double(total) / committed
let intoPostgres = Double(total) / uploaded
let observerRate = Double(observed.count) / delivered
print(String(format: "local commits:     %.2f s (%.0f commits/s over %d files)", committed, commitRate, options.clients))
print(String(format: "into PostgreSQL:   %.2f s, %.0f changes/s (every change acknowledged)", uploaded, intoPostgres))
print(
    String(
        format: "on the observer:   %.2f s, %.0f changes/s (%d of %d notified, ", delivered, observerRate,
        observed.count, expected) + options.mode.observerDescription + ")")
print(
    String(
        format: "commit -> notification latency: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms (%d samples)",
        percentile(0.5), percentile(0.9), percentile(0.99), sorted.count))
// The devices stop asking first (paused sessions send no new request while the server stops); the server answers
// the long polls still waiting at its next recheck (docs/SYNC.md, "Running it").
for device in devices { device.queue.sync { device.database.syncSession?.pause() } }
observerQueue.sync { observer.syncSession?.pause() }
await serverGroup.triggerGracefulShutdown()
try await serverTask.value
if options.keepsSchema {
    print("kept PostgreSQL schema \(databaseSchema)")
} else {
    try await benchSchema.drop(postgresURL: options.postgres, logger: logger)
}

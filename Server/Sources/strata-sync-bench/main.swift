import Foundation
import Hummingbird
import JWTKit
import Logging
import Strata
import StrataSyncServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// strata-sync-bench: 20 Strata clients (each its own file and sync session) commit 1,000 one-object changes each
// through an in-process `strata-sync` server into PostgreSQL, while another device observes the model. Prints the
// throughput (changes acknowledged into PostgreSQL per second, and changes applied on the observing device per
// second) and the latency from a commit on one device to the notification on the observer (p50, p99).
// docs/BENCHMARKS.md, "Sync", compares it with pgbench's inserts per second on the same PostgreSQL.
//
//   swift run -c release strata-sync-bench [--postgres URL] [--clients 20] [--changes 1000]

let options = BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
var logger = Logger(label: "strata-sync-bench")
logger.logLevel = .error

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let key = Array("strata-sync-bench key, 32 bytes or more".utf8)
let keyFile = directory.appendingPathComponent("key.txt").path
try Data(key).write(to: URL(fileURLWithPath: keyFile))
let rulesFile = directory.appendingPathComponent("rules.yaml").path
try "models:\n  Reading: { shared: readWrite }\n".write(toFile: rulesFile, atomically: true, encoding: .utf8)
let schemaFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Schemas/strata-sync-bench").path
let databaseSchema = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()

let configuration = SyncServerConfiguration(
    schemaPaths: [schemaFolder], postgresURL: options.postgres, databaseSchema: databaseSchema, jwtKeyFile: keyFile,
    rulesFile: rulesFile, port: options.port)
let app = try await SyncServer.application(configuration, logger: logger)
let serverTask = Task { try await app.runService() }
let server = URL(string: "http://127.0.0.1:\(options.port)")!
try await waitUntilHealthy(server)

let keys = JWTKeyCollection()
await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
let token = try await keys.sign(
    BenchClaims(sub: SubjectClaim(value: "bench"), exp: ExpirationClaim(value: Date().addingTimeInterval(3600))))

func configuration(_ name: String) -> Configuration {
    var configuration = Configuration(schema: Bench.self)
    configuration.fileURL = directory.appendingPathComponent("\(name).strata")
    configuration.durability = .none
    var sync = SyncConfiguration(server: server, token: token)
    sync.downloadWait = 25
    configuration.sync = sync
    return configuration
}

// The observing device: every inserted reading's latency from its commit (its `value`, in microseconds).
let expected = options.clients * options.changes
let observerQueue = DispatchQueue(label: "observer")
let latencies = LatencyLog()
let observer = try observerQueue.sync { try Database(configuration: configuration("observer"), queue: observerQueue) }
let observed = ObservedResults()
let notificationToken = observerQueue.sync {
    observer.objects(Reading.self).observe { change in
        guard case .update(let results, _, let insertions, _) = change else { return }
        let now = microseconds()
        for index in insertions { latencies.add(now - results[index].value) }
        observed.count = results.count
    }
}

let devices = try (0..<options.clients).map { index -> Device in
    let queue = DispatchQueue(label: "device \(index)")
    let database = try queue.sync { try Database(configuration: configuration("device\(index)"), queue: queue) }
    return Device(index: index, database: database, queue: queue)
}
let changesPerClient = options.changes
print("strata-sync-bench: \(options.clients) clients x \(options.changes) one-object commits, PostgreSQL schema \(databaseSchema)")
let start = Date()
try await withThrowingTaskGroup(of: Void.self) { group in
    for device in devices {
        group.addTask { try device.commit(changesPerClient) }
    }
    try await group.waitForAll()
}
let committed = Date().timeIntervalSince(start)
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
let uploaded = Date().timeIntervalSince(start)
while observed.count < expected, Date().timeIntervalSince(start) < 600 {
    try await Task.sleep(for: .milliseconds(5))
}
let delivered = Date().timeIntervalSince(start)
observerQueue.sync { notificationToken.invalidate() }

let sorted = latencies.values.sorted()
func percentile(_ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) / 1000
}
print(String(format: "local commits:     %.2f s (%.0f commits/s over %d files)", committed, Double(expected) / committed, options.clients))
print(String(format: "into PostgreSQL:   %.2f s, %.0f changes/s (every change acknowledged)", uploaded, Double(expected) / uploaded))
print(String(format: "on the observer:   %.2f s, %.0f changes/s (%d of %d notified)", delivered, Double(observed.count) / delivered, observed.count, expected))
print(String(format: "commit -> notification latency: p50 %.1f ms, p99 %.1f ms (%d samples)", percentile(0.5), percentile(0.99), sorted.count))
serverTask.cancel()

// MARK: Support

/// One committing device: its database, confined to its queue.
struct Device: @unchecked Sendable {
    let index: Int
    let database: Database
    let queue: DispatchQueue

    /// Commits `count` one-object writes, each stamped with its commit time.
    func commit(_ count: Int) throws {
        for change in 0..<count {
            try queue.sync {
                try database.write {
                    database.add(Reading(id: "d\(index)-\(change)", device: "d\(index)", value: microseconds()))
                }
            }
        }
    }
}

struct BenchOptions {
    var postgres = ProcessInfo.processInfo.environment["STRATA_SYNC_TEST_POSTGRES"]
        ?? "postgres://strata:strata@127.0.0.1:5432/strata_test"
    var clients = 20
    var changes = 1000
    var port = 18_765

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let value = iterator.next() ?? ""
            switch argument {
            case "--postgres": postgres = value
            case "--clients": clients = Int(value) ?? clients
            case "--changes": changes = Int(value) ?? changes
            case "--port": port = Int(value) ?? port
            default:
                FileHandle.standardError.write(Data("unknown option \(argument)\n".utf8))
                exit(2)
            }
        }
    }
}

struct BenchClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws { try exp.verifyNotExpired() }
}

final class LatencyLog: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Int] = []
    func add(_ value: Int) { lock.withLock { samples.append(value) } }
    var values: [Int] { lock.withLock { samples } }
}

final class ObservedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

func microseconds() -> Int { Int(Date().timeIntervalSince1970 * 1_000_000) }

func waitUntilHealthy(_ server: URL) async throws {
    for _ in 0..<600 {
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            URLSession.shared.dataTask(with: server.appendingPathComponent("health")) { _, response, _ in
                continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
            }.resume()
        }
        if status == 200 { return }
        try await Task.sleep(for: .milliseconds(100))
    }
    throw SyncError(status: nil, message: "the server did not start on \(server)")
}

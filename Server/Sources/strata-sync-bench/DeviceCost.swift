import Foundation
import Strata

/// `strata-sync-bench --device-cost N`: what a device's own commits cost, with no server and no PostgreSQL. Commits
/// `N` one-object writes (the bench's `Reading`) into a database with sync off and into one with sync on and its
/// session paused (so each commit records its outbox entries and nothing is sent), alternating rounds of 500 so that
/// both see the same machine, and prints the time per commit of each and their difference: the outbox's share of a
/// synced commit (docs/BENCHMARKS.md, "Sync").
enum DeviceCost {
    static func run(commits: Int) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-sync-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let off = try Database(configuration: configuration(directory, name: "off", sync: false))
        let on = try Database(configuration: configuration(directory, name: "on", sync: true))
        var elapsed = (off: 0.0, on: 0.0)
        var done = 0
        while done < commits {
            let round = min(500, commits - done)
            elapsed.off += try time(off, from: done, count: round)
            elapsed.on += try time(on, from: done, count: round)
            done += round
        }
        let pending = on.syncSession?.progress.pendingUploads ?? 0
        let perOff = elapsed.off / Double(commits) * 1e6
        let perOn = elapsed.on / Double(commits) * 1e6
        print("strata-sync-bench --device-cost: \(commits) one-object commits into each database, no server")
        print(String(format: "sync off: %.1f µs a commit (%.0f commits/s)", perOff, 1e6 / perOff))
        print(
            String(
                format: "sync on:  %.1f µs a commit (%.0f commits/s), %d changes in the outbox", perOn, 1e6 / perOn,
                pending))
        print(
            String(
                format: "recording the outbox: %.1f µs a commit (%.0f %% of a synced commit)", perOn - perOff,
                (perOn - perOff) / perOn * 100))
    }

    private static func time(_ database: Database, from first: Int, count: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for change in first..<(first + count) {
            try database.write {
                database.add(Reading(id: "c\(change)", owner: "user0", device: "d0", value: change))
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func configuration(_ directory: URL, name: String, sync: Bool) -> Configuration {
        var configuration = Configuration(schema: Bench.self)
        configuration.fileURL = directory.appendingPathComponent("\(name).strata")
        configuration.durability = .none
        if sync {
            var settings = SyncConfiguration(server: URL(string: "http://127.0.0.1:9")!, token: "unused")
            settings.startsImmediately = false
            configuration.sync = settings
        }
        return configuration
    }
}

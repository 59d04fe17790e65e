import Foundation
import Strata

extension SyncHarness {
    /// Clients "a", "b" and "c" make seeded random changes for `rounds` rounds: in each, every client goes offline
    /// or online at random (15 %), commits `count` changes made by `change` in one write, and now and then (30 %)
    /// the online ones sync. At the end all are online, uploaded and downloaded, ready to be compared.
    func randomRounds(
        _ rounds: Int, seed: UInt64, count: @escaping (inout SeededRandom) -> Int,
        change: @escaping (inout SeededRandom, Database, _ round: Int) -> Void
    ) async throws -> [SyncClient] {
        var clients: [SyncClient] = []
        for name in ["a", "b", "c"] {
            clients.append(try await client(name, queue: DispatchQueue(label: "client \(name)")))
        }
        var random = SeededRandom(seed: seed)
        for round in 0..<rounds {
            for client in clients {
                if random.next(100) < 15 {
                    client.session.state == .paused ? client.session.resume() : client.session.pause()
                }
                let changes = count(&random)
                try client.write { db in
                    for _ in 0..<changes { change(&random, db, round) }
                }
            }
            if random.next(100) < 30 {
                for client in clients where client.session.state == .active { try await client.sync() }
            }
        }
        for client in clients { client.session.resume() }
        for client in clients { try await client.session.waitForUpload() }
        for client in clients { try await client.session.waitForDownload() }
        return clients
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}

import Foundation
import JWTKit
import Strata
import StrataSyncServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One committing device: its database, confined to its queue.
struct Device: @unchecked Sendable {
    let index: Int
    let user: String
    let database: Database
    let queue: DispatchQueue

    /// Commits `count` one-object writes on the device's queue (not on Swift's cooperative threads, which the
    /// server and the sync sessions run on), each stamped with its commit time; with a `rate`, commit `n` waits
    /// until `start + offset + n / rate` (``BenchOptions/offset(ofDevice:)``: the devices' commits spread over the
    /// period, or all at once with `--lockstep`).
    func commit(_ count: Int, rate: Double, from start: Date, offset: TimeInterval = 0) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            queue.async {
                do {
                    for change in 0..<count {
                        if rate > 0 {
                            let due = start.addingTimeInterval(offset + Double(change) / rate).timeIntervalSinceNow
                            if due > 0 { Thread.sleep(forTimeInterval: due) }
                        }
                        try database.write {
                            database.add(
                                Reading(
                                    id: "d\(index)-\(change)", owner: user, device: "d\(index)", value: microseconds()))
                        }
                    }
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
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

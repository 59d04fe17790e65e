import Foundation
import Strata
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// A `strata-sync serve` child process (the executable SwiftPM built beside the tests), for the tests that kill it.
final class ServerProcess {
    let process = Process()
    let port: Int

    /// Starts the server of `harness` on a free port (with `arguments` added to its command line) and waits until
    /// `/health` answers.
    init(harness: SyncHarness, port: Int? = nil, arguments: [String] = []) throws {
        self.port = try port ?? ServerProcess.freePort()
        guard let executable = ServerProcess.executable else {
            throw XCTSkip("strata-sync is not built beside the tests (swift build builds it)")
        }
        let configuration = harness.configuration(port: self.port)
        process.executableURL = executable
        process.arguments = [
            "serve", "--schemas", SyncHarness.schemaFolder, "--postgres", configuration.postgresURL,
            "--database-schema", configuration.databaseSchema, "--jwt-key-file", configuration.jwtKeyFile,
            "--rules", configuration.rulesFile, "--port", String(self.port), "--log-level", "error",
        ] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if ServerProcess.isHealthy(port: self.port) { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill()
        throw Strata.SyncError(status: nil, message: "strata-sync did not become healthy on port \(self.port)")
    }

    deinit { kill() }

    /// Kills the process at once (SIGKILL: no shutdown of any kind) and waits for it.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Asks the process to stop as an orchestrator would (SIGTERM: a graceful shutdown) and waits for it at most
    /// `seconds`; returns whether it exited by then (it is killed if not).
    func terminate(within seconds: TimeInterval) -> Bool {
        guard process.isRunning else { return true }
        Glibc.kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let exited = !process.isRunning
        kill()
        return exited
    }

    /// The built executable: `.build/debug/strata-sync` (or release) of the Server package.
    static var executable: URL? {
        let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for configuration in ["debug", "release"] {
            let candidate = server.appendingPathComponent(".build/\(configuration)/strata-sync")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    private static func isHealthy(port: Int) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var healthy = false
        let url = URL(string: "http://127.0.0.1:\(port)/health")!
        URLSession.shared.dataTask(with: url) { _, response, _ in
            healthy = (response as? HTTPURLResponse)?.statusCode == 200
            semaphore.signal()
        }.resume()
        semaphore.wait()
        return healthy
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Strata.SyncError(status: nil, message: "socket() failed: \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw Strata.SyncError(status: nil, message: "bind() failed: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

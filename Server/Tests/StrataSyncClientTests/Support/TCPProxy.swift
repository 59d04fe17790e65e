import Foundation
import Strata

#if canImport(Glibc)
import Glibc
#endif

/// A TCP forwarder on a loopback port to another address (the tests' PostgreSQL), which a test can cut and
/// restore: ``cut()`` closes every forwarded connection at once and refuses new ones (accepted, then closed at
/// once), as PostgreSQL going down does to its clients; ``restore()`` forwards again, as PostgreSQL coming back.
/// Faster than restarting PostgreSQL, and it leaves the shared PostgreSQL alone.
final class TCPProxy: @unchecked Sendable {
    /// The port it listens on (127.0.0.1).
    let port: Int
    private let upstreamHost: String
    private let upstreamPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var forwarding = true
    private var stopped = false
    private var open: Set<Int32> = []

    /// Listens on a free loopback port and forwards to `host`:`port`.
    init(upstreamHost host: String, upstreamPort port: Int) throws {
        upstreamHost = host
        upstreamPort = port
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Strata.SyncError(status: nil, message: "proxy: socket() failed: \(errno)") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.address("127.0.0.1", 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
                    && listen(listener, 64) == 0
            }
        }
        guard bound else {
            close(listener)
            throw Strata.SyncError(status: nil, message: "proxy: cannot listen: \(errno)")
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// `url` (a postgres:// URL) with its host and port replaced by the proxy's.
    func proxying(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.host = "127.0.0.1"
        components.port = port
        return components.string ?? url
    }

    /// Closes every forwarded connection and refuses new ones until ``restore()``.
    func cut() {
        lock.withLock {
            forwarding = false
            for socket in open { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Forwards new connections again.
    func restore() { lock.withLock { forwarding = true } }

    /// Stops listening and closes every connection.
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        cut()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            let (stopped, forwarding) = lock.withLock { (self.stopped, self.forwarding) }
            if client < 0 {
                if stopped { return }
                continue
            }
            guard forwarding, !stopped, let upstream = connectUpstream() else {
                close(client)
                if stopped { return }
                continue
            }
            let registered = lock.withLock { () -> Bool in
                guard self.forwarding else { return false }
                open.insert(client)
                open.insert(upstream)
                return true
            }
            guard registered else {
                close(client)
                close(upstream)
                continue
            }
            let pair = Pair()
            Thread.detachNewThread { [self] in pump(from: client, to: upstream, pair: pair) }
            Thread.detachNewThread { [self] in pump(from: upstream, to: client, pair: pair) }
        }
    }

    /// Both directions of one connection: the second pump to end closes the two sockets.
    private final class Pair: @unchecked Sendable {
        let lock = NSLock()
        var ended = 0
    }

    private func pump(from source: Int32, to destination: Int32, pair: Pair) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        loop: while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes {
                    send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                if written <= 0 { break loop }
                sent += written
            }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        let last = pair.lock.withLock { () -> Bool in
            pair.ended += 1
            return pair.ended == 2
        }
        guard last else { return }
        lock.withLock {
            open.remove(source)
            open.remove(destination)
        }
        close(source)
        close(destination)
    }

    private func connectUpstream() -> Int32? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0 else { return nil }
        var address = Self.address(upstreamHost, upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(upstream)
            return nil
        }
        return upstream
    }

    private static func address(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        return address
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the studio's server-sent events over a plain socket (URLSession on Linux hands a body over only once it
/// ends, and an event stream does not end).
final class EventStreamReader {
    private let descriptor: Int32
    private var received = ""

    /// Connects to 127.0.0.1:`port` and asks for `/api/events` with `token`.
    init(port: Int, token: String) throws {
        descriptor = try LoopbackHTTP.connectedSocket(port: port)
        let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Strata-Studio-Token: \(token)\r\n\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
    }

    deinit { close(descriptor) }

    /// Everything received so far, once it contains `marker` or `seconds` have passed.
    func read(until marker: String, seconds: Double) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(marker), Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        // Chunked transfer encoding puts sizes between the events' lines; the events' own text is unchanged.
        return received
    }
}

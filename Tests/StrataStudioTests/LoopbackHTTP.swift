import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client for a server on 127.0.0.1, one request per connection (`Connection: close`).
///
/// The WebDriver test needs it because chromedriver writes its headers without a space after the colon
/// (`Content-Length:250`), which URLSession on Linux refuses ("Failed writing header").
enum LoopbackHTTP {
    /// A TCP socket connected to `address`:`port` (IPv4), or `nil` when nothing answers there.
    static func socket(connectedTo address: String, port: Int) -> Int32? {
        #if canImport(Glibc)
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = inet_pton(AF_INET, address, &target.sin_addr) == 1 && withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
        guard connected else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// A TCP socket connected to 127.0.0.1:`port`.
    static func connectedSocket(port: Int) throws -> Int32 {
        guard let descriptor = socket(connectedTo: "127.0.0.1", port: port) else { throw POSIXError(.ECONNREFUSED) }
        return descriptor
    }

    /// Sends `method path` with `body` (JSON) to 127.0.0.1:`port`; returns the status and the body.
    static func request(port: Int, method: String, path: String, body: Data?, timeout: Double = 120) throws
        -> (status: Int, body: Data)
    {
        let descriptor = try connectedSocket(port: port)
        defer { close(descriptor) }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let body {
            request += "Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
        }
        var bytes = Array((request + "\r\n").utf8)
        if let body { bytes += body }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        // Until the body is whole (chromedriver keeps the connection open despite `Connection: close`).
        while Date() < deadline {
            if let end = find([13, 10, 13, 10], in: received), let length = contentLength(received[..<end]),
               received.count >= end + 4 + length {
                break
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 250) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        guard let end = find([13, 10, 13, 10], in: received) else { throw POSIXError(.EPROTO) }
        let head = String(decoding: received[..<end], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw POSIXError(.EPROTO) }
        let length = contentLength(received[..<end]) ?? (received.count - end - 4)
        return (status, Data(received[(end + 4)..<min(received.count, end + 4 + length)]))
    }

    /// The `Content-Length` of a response head, with or without a space after the colon.
    private static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<index + needle.count]) == needle {
            return index
        }
        return nil
    }
}

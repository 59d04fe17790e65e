import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest

/// A small client of the W3C WebDriver HTTP API, driving Debian's headless Chromium through chromedriver: what the
/// browser test needs and nothing more (no dependency: a socket through ``LoopbackHTTP``, and JSON).
final class WebDriver {
    private let driver: Process
    private let port: Int
    private let session: String
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    /// Starts chromedriver and a headless Chromium session with a `width` × `height` window.
    init(width: Int = 1280, height: Int = 820) async throws {
        let chromedriver = try Self.executable("chromedriver")
        let chromium = try Self.executable("chromium")
        let port = try FreePort.pick()
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: chromedriver)
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        self.port = port
        var problem: Error?
        for _ in 0..<100 {
            do {
                _ = try Self.send(port: port, "/status", "GET", nil)
                problem = nil
                break
            } catch {
                problem = error
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        if let problem {
            Self.stop(driver)
            throw WebDriverError("chromedriver did not start on port \(port): \(problem)")
        }
        let capabilities: [String: Any] = [
            "capabilities": ["alwaysMatch": [
                "browserName": "chrome",
                "goog:chromeOptions": [
                    "binary": chromium,
                    "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--window-size=\(width),\(height)",
                             "--user-data-dir=\(NSTemporaryDirectory())strata-studio-chromium-\(UUID().uuidString)"],
                ],
            ]],
        ]
        do {
            let answer = try Self.send(port: port, "/session", "POST", capabilities)
            guard let value = answer as? [String: Any], let id = value["sessionId"] as? String else {
                throw WebDriverError("no session in \(answer)")
            }
            session = id
        } catch {
            Self.stop(driver)
            throw error
        }
    }

    /// Ends the session and chromedriver.
    func quit() async {
        _ = try? await command("", method: "DELETE")
        Self.stop(driver)
    }

    /// Ends chromedriver: SIGTERM, then SIGKILL if it has not gone within two seconds.
    private static func stop(_ driver: Process) {
        driver.terminate()
        let deadline = Date().addingTimeInterval(2)
        while driver.isRunning, Date() < deadline { usleep(50_000) }
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
    }

    /// Opens `address`.
    func open(_ address: String) async throws {
        _ = try await command("url", ["url": address])
    }

    /// The first element `selector` finds, waiting up to `seconds` for it.
    func element(_ selector: String, seconds: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let found = try? await command("element", ["using": "css selector", "value": selector]),
               let object = found as? [String: Any], let id = object[Self.elementKey] as? String {
                return id
            }
            if Date() > deadline { throw WebDriverError("no element matches \(selector)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Runs `body` on element `selector`, finding it again when the page replaced it in between (a re-render after
    /// a live update makes the element found a moment ago "stale").
    private func onElement<T>(_ selector: String, _ body: (String) async throws -> T) async throws -> T {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let id = try await element(selector)
            do {
                return try await body(id)
            } catch let error as WebDriverError where "\(error)".contains("stale element") && Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Clicks element `selector`.
    func click(_ selector: String) async throws {
        try await onElement(selector) { id in _ = try await command("element/\(id)/click", [:]) }
    }

    /// Clears element `selector` and types `text` into it.
    func type(_ text: String, into selector: String) async throws {
        try await onElement(selector) { id in
            _ = try await command("element/\(id)/clear", [:])
            _ = try await command("element/\(id)/value", ["text": text])
        }
    }

    /// The visible text of element `selector`.
    func text(_ selector: String) async throws -> String {
        try await onElement(selector) { id in try await command("element/\(id)/text", method: "GET") as? String ?? "" }
    }

    /// Waits until the text of `selector` satisfies `condition`; returns it.
    @discardableResult
    func waitForText(_ selector: String, seconds: Double = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = (try? await text(selector)) ?? ""
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw WebDriverError("the text of \(selector) stayed \"\(last.prefix(300))\"")
    }

    /// Runs `script` in the page; returns its value.
    func run(_ script: String) async throws -> Any {
        try await command("execute/sync", ["script": script, "args": [Any]()])
    }

    /// Saves a PNG screenshot of the window to `url`.
    func screenshot(to url: URL) async throws {
        guard let text = try await command("screenshot", method: "GET") as? String, let data = Data(base64Encoded: text)
        else { throw WebDriverError("no screenshot") }
        try data.write(to: url)
    }

    private func command(_ path: String, _ body: [String: Any]? = nil, method: String = "POST") async throws -> Any {
        let full = "/session/\(session)" + (path.isEmpty ? "" : "/\(path)")
        return try Self.send(port: port, full, method, body)
    }

    private static func send(port: Int, _ path: String, _ method: String, _ body: [String: Any]?) throws -> Any {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let answer = try LoopbackHTTP.request(port: port, method: method, path: path, body: data)
        let object = try JSONSerialization.jsonObject(with: answer.body, options: [.fragmentsAllowed])
        let value = (object as? [String: Any])?["value"] ?? NSNull()
        guard answer.status == 200 else { throw WebDriverError("\(method) \(path): \(value)") }
        return value
    }

    private static func executable(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/usr/lib/chromium"] {
            let path = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw WebDriverError("\(name) is not installed (apt-get install chromium chromium-driver)")
    }
}

/// A WebDriver failure, with what the driver said.
struct WebDriverError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP port free on 127.0.0.1 right now.
enum FreePort {
    static func pick() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(descriptor, pointer, length) == 0 else { return -1 }
                return getsockname(descriptor, pointer, &length)
            }
        }
        guard bound == 0 else { throw WebDriverError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

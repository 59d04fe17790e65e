import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StrataStorage
import StrataStudio

/// `strata-bench studio`: how fast Strata Studio answers the page on a big model, end to end over HTTP on
/// loopback (the server in this process, the client URLSession, as a browser would ask).
///
/// It writes a model of `--objects` objects (1,000,000 by default: an integer primary key, a name with an index, an
/// age from 0 to 89, an unindexed integer code and a link to one of 100 cities), starts the studio on it and times,
/// each `--repeats` times (the report shows medians and the slowest run): the first page of 50 objects, a page
/// deep in the model, the first page of a filtered query (`age == 42`, one object in 90 matches), a filtered query
/// on a link path, two sparse queries matching one object (through the name's index, and by a scan of the code
/// column), the first page sorted by age and a sorted, filtered page. Filters and sorts run the app's query engine
/// (``StoredQuery``). The studio's target (docs/STUDIO.md) is under 100 ms for each.
struct StudioBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio", abstract: "Strata Studio: page and query times on a model of a million objects.")

    @Option(help: "Objects in the model.")
    var objects = 1_000_000

    @Option(help: "Times each request is timed; the report shows the median and the slowest.")
    var repeats = 11

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-studio-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("studio.strata").path
        let started = Date()
        try Self.write(objects: objects, to: path)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        print("wrote \(objects) objects in \(String(format: "%.1f", Date().timeIntervalSince(started))) s "
            + "(\(size >> 20) MiB)")
        let last = objects - 1
        let requests: [(String, String)] = [
            ("first page", "model=Person&limit=50"),
            ("page at \(objects / 2)", "model=Person&limit=50&offset=\(objects / 2)"),
            ("filter age == 42", "model=Person&limit=50&filter=age%20%3D%3D%2042"),
            ("filter home.name == 'City 7'", "model=Person&limit=50&filter=home.name%20%3D%3D%20'City%207'"),
            ("sparse, indexed: name == one", "model=Person&limit=50&filter=name%20%3D%3D%20'Person%20\(last)'"),
            ("sparse, unindexed: code == one", "model=Person&limit=50&filter=code%20%3D%3D%20\(last)"),
            ("sorted by age, first page", "model=Person&limit=50&sort=age"),
            ("age < 30 sorted by name desc", "model=Person&limit=50&filter=age%20%3C%2030&sort=name&desc=1"),
        ]
        let figures = try StudioTimer.measure(path: path, requests: requests, repeats: repeats)
        print("request".padding(toLength: 36, withPad: " ", startingAt: 0) + "median ms  slowest ms  server ms")
        for figure in figures {
            print(figure.name.padding(toLength: 36, withPad: " ", startingAt: 0)
                + String(format: "%9.2f  %10.2f  %9.2f", figure.median, figure.slowest, figure.server))
        }
    }

    /// Writes the model through the storage layer, 100,000 objects per write transaction.
    private static func write(objects: Int, to path: String) throws {
        var options = StoreOptions()
        options.durability = .none
        let store = try Store.open(path: path, options: options)
        defer { store.close() }
        var transaction = try store.beginWrite()
        var catalog = try Catalog(writer: transaction)
        let city = try catalog.createTable(named: "City")
        let cityName = try city.addColumn(named: "name", type: .value(.string))
        try city.setPrimaryKey(cityName)
        let person = try catalog.createTable(named: "Person")
        let id = try person.addColumn(named: "id", type: .value(.int))
        try person.setPrimaryKey(id)
        let name = try person.addColumn(named: "name", type: .value(.string))
        _ = try person.addIndex(on: [name])
        let age = try person.addColumn(named: "age", type: .value(.int))
        let code = try person.addColumn(named: "code", type: .value(.int))
        let home = try person.addColumn(named: "home", type: .value(.link), nullable: true, target: city.key)
        let cities = try (0..<100).map { try city.insert([(cityName, .string("City \($0)"))]) }
        let columns = [id, name, age, code, home]
        for index in 0..<objects {
            _ = try catalog.table(named: "Person")!.insert(
                [.int(Int64(index)), .string("Person \(index)"), .int(Int64(index % 90)), .int(Int64(index)),
                 .link(cities[index % cities.count])],
                into: columns)
            if index % 100_000 == 99_999 {
                try catalog.flush()
                try transaction.commit()
                transaction = try store.beginWrite()
                catalog = try Catalog(writer: transaction)
            }
        }
        try catalog.flush()
        try transaction.commit()
    }
}

/// Serves a file with the studio and times requests to it.
private enum StudioTimer {
    struct Figure {
        let name: String
        let median: Double
        let slowest: Double
        let server: Double
    }

    static func measure(path: String, requests: [(String, String)], repeats: Int) throws -> [Figure] {
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            defer { done.signal() }
            do {
                result.figures = try await run(path: path, requests: requests, repeats: repeats)
            } catch {
                result.error = error
            }
        }
        done.wait()
        if let error = result.error { throw error }
        return result.figures
    }

    private static func run(path: String, requests: [(String, String)], repeats: Int) async throws -> [Figure] {
        let server = try StudioServer(configuration: StudioConfiguration(path: path, readOnly: true))
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let serving = Task { try await server.run { continuation.yield($0) } }
        do {
            let figures = try await measure(server: server, ports: ports, requests: requests, repeats: repeats)
            await server.stop()
            _ = await serving.result
            server.close()
            return figures
        } catch {
            await server.stop()
            _ = await serving.result
            server.close()
            throw error
        }
    }

    private static func measure(
        server: StudioServer, ports: AsyncStream<Int>, requests: [(String, String)], repeats: Int
    ) async throws -> [Figure] {
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchmarkError("the studio did not start") }
        var figures: [Figure] = []
        for (name, query) in requests {
            var times: [Double] = []
            var serverTimes: [Double] = []
            // One request first, untimed: the first touch of the file's pages and of the code.
            _ = try await get(port: port, token: server.token.value, query: query)
            for _ in 0..<max(1, repeats) {
                let start = DispatchTime.now().uptimeNanoseconds
                let body = try await get(port: port, token: server.token.value, query: query)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
                guard let rows = object?["rows"] as? [Any], !rows.isEmpty else {
                    throw BenchmarkError("\(name): no rows in \(String(decoding: body.prefix(300), as: UTF8.self))")
                }
                serverTimes.append((object?["milliseconds"] as? Double) ?? 0)
            }
            figures.append(Figure(
                name: name, median: times.median ?? 0, slowest: times.max() ?? 0, server: serverTimes.median ?? 0))
        }
        return figures
    }

    private static func get(port: Int, token: String, query: String) async throws -> Data {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/objects?\(query)")!)
        request.setValue(token, forHTTPHeaderField: AccessToken.header)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw BenchmarkError("GET \(query): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        return data
    }

    private final class ResultBox: @unchecked Sendable {
        var figures: [Figure] = []
        var error: Error?
    }
}

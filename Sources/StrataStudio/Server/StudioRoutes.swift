import Foundation
import Hummingbird
import Strata
import StrataStorage

/// The page and the API behind it (docs/STUDIO.md lists every endpoint). Every route is behind the token check.
struct StudioRoutes: Sendable {
    let database: StudioDatabase
    let token: AccessToken
    let feed: ChangeFeed

    /// The largest request body (an import) the studio reads.
    static let maximumBody = 256 << 20

    /// A router with the page, its assets and every endpoint.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(TokenMiddleware(token: token))
        router.get("/") { _, _ in StudioResponse.asset(StudioPage.html, type: "text/html; charset=utf-8") }
        router.get("/studio.css") { _, _ in StudioResponse.asset(StudioStyle.css, type: "text/css; charset=utf-8") }
        router.get("/studio.js") { _, _ in
            StudioResponse.asset(StudioScript.javaScript, type: "text/javascript; charset=utf-8")
        }
        let database = self.database
        router.get("/api/status") { _, _ in
            await Self.answer {
                try await database.read { catalog, store in
                    try StatusDescriber(store: store, catalog: catalog, isReadOnly: database.isReadOnly).describe()
                }
            }
        }
        router.get("/api/schema") { _, _ in
            await Self.answer {
                try await database.read { catalog, _ in try SchemaDescriber(catalog: catalog).describe() }
            }
        }
        router.get("/api/objects") { request, _ in
            await Self.answer {
                let page = try PageRequest(query: Self.query(request))
                return try await database.read { catalog, _ in try ObjectPager(catalog: catalog).page(page) }
            }
        }
        router.get("/api/object") { request, _ in
            await Self.answer {
                let query = Self.query(request)
                let model = try Self.required("model", in: query)
                let key = try Self.integer("key", in: query)
                return try await database.read { catalog, _ in
                    let table = try ModelLookup.table(model, in: catalog)
                    let object = try ModelLookup.object(key, in: table)
                    let encoder = RowEncoder(catalog: catalog)
                    let columns = RowEncoder.visibleColumns(table)
                    return JSONValue.object([
                        ("model", .string(table.name)),
                        ("label", .string(try encoder.label(object, in: table))),
                        ("columns", .array(columns.map { SchemaDescriber(catalog: catalog).column($0, of: table) })),
                        ("row", try encoder.row(object, of: table, columns: columns, preview: 1000)),
                        ("linkingObjects", try encoder.linkingObjects(object, of: table)),
                    ])
                }
            }
        }
        router.post("/api/set") { request, _ in
            await Self.answer {
                let body = try await Self.body(request)
                let model = try Self.string("model", in: body)
                let key = try Self.number("key", in: body)
                let property = try Self.string("property", in: body)
                guard let value = body["value"] else { throw StudioError(400, "the edit has no value") }
                return try await database.write { catalog in
                    try ObjectEditor(catalog: catalog).set(model: model, key: key, property: property, to: value)
                }
            }
        }
        router.post("/api/insert") { request, _ in
            await Self.answer {
                let body = try await Self.body(request)
                let model = try Self.string("model", in: body)
                let object = body["object"] ?? .object([])
                let key = try await database.write { catalog in
                    try ObjectEditor(catalog: catalog).insert(model: model, object)
                }
                return .object([("key", .number(String(key)))])
            }
        }
        router.post("/api/delete") { request, _ in
            await Self.answer {
                let body = try await Self.body(request)
                let model = try Self.string("model", in: body)
                let key = try Self.number("key", in: body)
                let count = try await database.write { catalog in
                    try ObjectEditor(catalog: catalog).delete(model: model, key: key)
                }
                return .object([("deleted", .number(String(count)))])
            }
        }
        router.get("/api/export") { request, _ in
            do {
                var page = try PageRequest(query: Self.query(request))
                let format = ObjectExport.Format(rawValue: Self.query(request)["format"] ?? "json") ?? .json
                page.offset = 0
                let request = page
                let bytes = try await database.read { catalog, _ in
                    let (table, keys) = try ObjectPager(catalog: catalog).allKeys(request)
                    return try ObjectExport.write(keys, of: table, catalog: catalog, format: format, pretty: true)
                }
                let type = format == .json ? "application/json; charset=utf-8" : "text/csv; charset=utf-8"
                return StudioResponse.download(bytes, name: "\(page.model).\(format.rawValue)", type: type)
            } catch {
                return StudioResponse.error(error)
            }
        }
        router.post("/api/import") { request, _ in
            await Self.answer {
                let query = Self.query(request)
                let model = try Self.required("model", in: query)
                let format = ObjectExport.Format(rawValue: query["format"] ?? "json") ?? .json
                var request = request
                let buffer = try await request.collectBody(upTo: Self.maximumBody)
                let bytes = Array(buffer.readableBytesView)
                let count = try await database.write { catalog in
                    let table = try ModelLookup.table(model, in: catalog)
                    guard !table.isEmbedded else {
                        throw StudioError(
                            400, "\(table.name) is embedded: its objects are imported inside their owners")
                    }
                    let reader = RowJSONReader(catalog: catalog)
                    switch format {
                    case .json:
                        return try reader.importObjects(json: bytes, into: table)
                    case .csv:
                        let document = try CSVReader(bytes).objects(for: table, catalog: catalog)
                        return try reader.importObjects(document, into: table)
                    }
                }
                return .object([("imported", .number(String(count)))])
            }
        }
        let feed = self.feed
        router.get("/api/events") { _, _ in
            let stream = feed.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                    for await version in stream {
                        try await writer.write(ByteBuffer(string: "event: commit\ndata: {\"version\": \(version)}\n\n"))
                    }
                    try await writer.finish(nil)
                })
        }
        return router
    }

    /// Runs `body` and answers with its JSON, or with the error it threw.
    private static func answer(_ body: () async throws -> JSONValue) async -> Response {
        do {
            return StudioResponse.json(try await body())
        } catch {
            return StudioResponse.error(error)
        }
    }

    private static func query(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { result[String(key)] = String(value) }
        return result
    }

    private static func required(_ name: String, in query: [String: String]) throws -> String {
        guard let value = query[name], !value.isEmpty else { throw StudioError(400, "the request names no \(name)") }
        return value
    }

    private static func integer(_ name: String, in query: [String: String]) throws -> Int64 {
        let text = try required(name, in: query)
        guard let value = Int64(text) else { throw StudioError(400, "\(name) '\(text)' is not an integer") }
        return value
    }

    private static func body(_ request: Request) async throws -> JSONValue {
        var request = request
        let buffer = try await request.collectBody(upTo: maximumBody)
        var parser = JSONParser(Array(buffer.readableBytesView))
        do {
            return try parser.parse()
        } catch {
            throw StudioError(400, "the request body is not JSON: \(error)")
        }
    }

    private static func string(_ name: String, in body: JSONValue) throws -> String {
        guard case .string(let value)? = body[name] else { throw StudioError(400, "the request has no \(name)") }
        return value
    }

    private static func number(_ name: String, in body: JSONValue) throws -> Int64 {
        guard case .number(let text)? = body[name], let value = Int64(text) else {
            throw StudioError(400, "the request has no integer \(name)")
        }
        return value
    }
}

import Foundation
import StrataTestSupport

@testable import Strata

/// The `Graph` schema's database for the delete-rule tests, and its contents as comparable text.
enum GraphRendering {
    /// A new database of schema `Graph` in `directory`.
    static func open(in directory: TemporaryDirectory, name: String = "graph.strata") throws -> Database {
        try Database(configuration: configuration(path: directory.url.appendingPathComponent(name).path))
    }

    /// The configuration of a `Graph` file at `path`.
    static func configuration(path: String) -> Configuration {
        return Configuration(schema: Graph.self).scratch(at: URL(fileURLWithPath: path))
    }

    /// Every vertex by id, rendered by ``line(_:)``.
    static func render(_ db: Database) -> [Int: String] {
        Dictionary(uniqueKeysWithValues: db.objects(Vertex.self).map { ($0.id, line($0)) })
    }

    /// One vertex's outgoing edges: links, lists in order, sets sorted, maps by key, stickers' links.
    static func line(_ vertex: Vertex) -> String {
        func id(_ vertex: Vertex?) -> String { vertex.map { "\($0.id)" } ?? "-" }
        func ids(_ list: List<Vertex>) -> String { list.map { "\($0.id)" }.joined(separator: ",") }
        func sorted(_ set: MutableSet<Vertex>) -> String { set.map(\.id).sorted().map { "\($0)" }.joined(separator: ",") }
        func entries(_ map: Map<String, Vertex?>) -> String {
            map.map { "\($0.key):\(id($0.value))" }.sorted().joined(separator: ",")
        }
        func sticker(_ sticker: Sticker?) -> String { sticker.map { "(\(id($0.target)) \(id($0.pin)))" } ?? "-" }
        return [
            "next \(id(vertex.next)) \(id(vertex.nextCascade)) \(id(vertex.nextDeny))",
            "items [\(ids(vertex.items))] [\(ids(vertex.itemsCascade))] [\(ids(vertex.itemsDeny))]",
            "members {\(sorted(vertex.members))} {\(sorted(vertex.membersCascade))} {\(sorted(vertex.membersDeny))}",
            "slots {\(entries(vertex.slots))} {\(entries(vertex.slotsCascade))} {\(entries(vertex.slotsDeny))}",
            "sticker \(sticker(vertex.sticker)) [\(vertex.stickers.map(sticker).joined(separator: ","))]",
            "spare \(id(vertex.spare))",
        ].joined(separator: "; ")
    }
}

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// Random graphs of `Graph` vertices (every kind of property under every rule), random deletes, and after every
/// commit (or refused write) the file compared with a brute-force model of what must remain. Seeded; a few hundred
/// rounds by default, many more with `STRATA_LONG_TESTS=1`.
final class DeleteRulesRandomTests: XCTestCase {
    private var isLong: Bool { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" }

    func testRandomDeletesAgainstABruteForceModel() throws {
        for seed: UInt64 in isLong ? Array(1...6) : [27, 2026] {
            try run(seed: seed, rounds: isLong ? 1_500 : 250, maxVertices: isLong ? 40 : 24)
        }
    }

    /// Graphs of hundreds of vertices, so that each delete's batches span several clusters of each table (the
    /// vertices and their embedded stickers): every cascade kind (link, list, set, map, embedded, linkingObjects)
    /// fans out through them, and the file is compared with the model after each multi-root delete.
    func testLargeBatchedCascadesAgainstABruteForceModel() throws {
        let directory = try TemporaryDirectory()
        let db = try GraphRendering.open(in: directory)
        var random = SeededRandom(seed: 31)
        var graph = GraphModel()
        let count = isLong ? 2_000 : 600
        for id in 1...count { graph.vertices[id] = GraphModel.Node() }
        try db.write { for id in 1...count { db.add(Vertex(id: id)) } }
        var edges: [GraphModel.EdgeChange] = []
        for _ in 0..<count * 2 {
            // Mostly nullify and cascade: a deny on a wide graph would refuse nearly every delete, and so would
            // `slotOfDeny` (a vertex held in a nullify map's slot denies), so maps get cascade slots only.
            let roll = random.below(200)
            let kind = random.below(7)
            let rule = roll == 0 ? 2 : kind == 3 || roll >= 136 ? 1 : 0
            edges.append(GraphModel.EdgeChange(
                source: 1 + random.below(count), kind: kind, rule: rule, target: 1 + random.below(count),
                key: ["a", "b", "c"][random.below(3)]))
        }
        for edge in edges { edge.apply(to: &graph) }
        try db.write { for edge in edges { edge.apply(in: db) } }
        XCTAssertEqual(GraphRendering.render(db), graph.rendered)
        var deleted = 0
        for round in 0..<6 {
            let ids = graph.vertices.keys.sorted()
            guard ids.count > 10 else { break }
            let roots = (0..<8).map { _ in ids[random.below(ids.count)] }
            let expected = graph.deleting(roots)
            do {
                try db.write { db.delete(roots.compactMap { db.object(ofType: Vertex.self, forPrimaryKey: $0) }) }
                guard let expected else { return XCTFail("round \(round): deleting \(roots) was accepted; the model denies it") }
                deleted += graph.vertices.count - expected.vertices.count
                graph = expected
            } catch StrataError.deleteDenied {
                XCTAssertNil(expected, "round \(round): deleting \(roots) was denied; the model accepts it")
            }
            XCTAssertEqual(GraphRendering.render(db), graph.rendered, "round \(round)")
        }
        XCTAssertGreaterThan(deleted, 50, "the deletes should cascade widely")
        XCTAssertNoThrow(try db.verify())
        // Every remaining vertex at once (their stickers go with them).
        try db.write { db.deleteAll(Vertex.self) }
        XCTAssertTrue(db.objects(Vertex.self).isEmpty)
        XCTAssertEqual(try db.table(for: XCTUnwrap(db.schema.model(named: "Sticker"))).count(), 0)
        XCTAssertNoThrow(try db.verify())
    }

    private func run(seed: UInt64, rounds: Int, maxVertices: Int) throws {
        let directory = try TemporaryDirectory()
        let db = try GraphRendering.open(in: directory)
        var random = SeededRandom(seed: seed)
        var graph = GraphModel()
        var nextId = 1
        var denials = 0
        var deletions = 0
        for round in 0..<rounds {
            if random.below(3) != 0 || graph.vertices.count < 4 {
                // A write that adds vertices and edges: always accepted.
                var changes: [(Database) -> Void] = []
                for _ in 0...random.below(4) {
                    if graph.vertices.count < maxVertices, random.below(3) == 0 {
                        let id = nextId
                        nextId += 1
                        graph.vertices[id] = GraphModel.Node()
                        changes.append { db in db.add(Vertex(id: id)) }
                    } else if let change = GraphModel.randomEdge(in: graph, random: &random) {
                        change.apply(to: &graph)
                        changes.append { db in change.apply(in: db) }
                    }
                }
                try db.write { for change in changes { change(db) } }
            } else {
                // A write of one to three deletes, each of one to three roots.
                let ids = graph.vertices.keys.sorted()
                let deletes = (0...random.below(3)).map { _ in
                    (0...random.below(3)).map { _ in ids[random.below(ids.count)] }
                }
                var expected: GraphModel? = graph
                for roots in deletes { expected = expected?.deleting(roots) }
                do {
                    try db.write {
                        for roots in deletes {
                            let objects = roots.compactMap { db.object(ofType: Vertex.self, forPrimaryKey: $0) }
                            if objects.count == 1 { db.delete(objects[0]) } else { db.delete(objects) }
                        }
                    }
                    guard let expected else {
                        return XCTFail("seed \(seed) round \(round): \(deletes) was accepted; the model denies it")
                    }
                    deletions += graph.vertices.count - expected.vertices.count
                    graph = expected
                } catch StrataError.deleteDenied {
                    XCTAssertNil(expected, "seed \(seed) round \(round): \(deletes) was denied; the model accepts it")
                    denials += 1
                }
            }
            let stored = GraphRendering.render(db)
            if stored != graph.rendered {
                return XCTFail("seed \(seed) round \(round): the file holds\n\(stored)\nthe model\n\(graph.rendered)")
            }
        }
        XCTAssertNoThrow(try db.verify())
        XCTAssertGreaterThan(denials, 0, "seed \(seed): the rounds should include denied writes")
        XCTAssertGreaterThan(deletions, rounds / 10, "seed \(seed): the rounds should delete")
    }
}

/// A brute-force model of a `Graph` file: every vertex's edges, and deletes computed by fixpoint over the whole
/// graph (not by the engine's walk).
private struct GraphModel {
    /// One embedded sticker's links.
    struct Sticky: Equatable {
        var target: Int?
        var pin: Int?
    }

    /// One vertex; arrays are indexed by rule: 0 nullify, 1 cascade, 2 deny.
    struct Node {
        var next: [Int?] = [nil, nil, nil]
        var items: [[Int]] = [[], [], []]
        var members: [Set<Int>] = [[], [], []]
        var slots: [[String: Int?]] = [[:], [:], [:]]
        var sticker: Sticky?
        var stickers: [Sticky] = []
        /// `spare`, which cascades in version 2.
        var spare: Int?

        /// The vertices this one's own properties reach under rule `rule`.
        func reached(_ rule: Int) -> [Int] {
            var found = [next[rule]].compactMap { $0 } + items[rule] + members[rule]
            found += slots[rule].values.compactMap { $0 }
            let stuck = [sticker].compactMap { $0 } + stickers
            if rule == 1 { found += stuck.compactMap(\.target) + [spare].compactMap { $0 } }
            if rule == 2 { found += stuck.compactMap(\.pin) }
            return found
        }

        /// The node with every link to `gone` nullified.
        func nullifying(_ gone: Set<Int>) -> Node {
            func kept(_ id: Int?) -> Int? { id.flatMap { gone.contains($0) ? nil : $0 } }
            func kept(_ sticky: Sticky) -> Sticky { Sticky(target: kept(sticky.target), pin: kept(sticky.pin)) }
            var node = self
            node.next = next.map(kept)
            node.items = items.map { $0.filter { !gone.contains($0) } }
            node.members = members.map { $0.subtracting(gone) }
            node.slots = slots.map { $0.mapValues(kept) }
            node.sticker = sticker.map(kept)
            node.stickers = stickers.map(kept)
            node.spare = kept(spare)
            return node
        }
    }

    /// One random edge change, applied to the model and to the database alike.
    struct EdgeChange {
        let source: Int
        let kind: Int
        let rule: Int
        let target: Int
        let key: String

        func apply(to graph: inout GraphModel) {
            guard var node = graph.vertices[source] else { return }
            switch kind {
            case 0: node.next[rule] = target
            case 1: node.items[rule].append(target)
            case 2: node.members[rule].insert(target)
            case 3: node.slots[rule][key] = .some(target)
            case 4: node.sticker = Sticky(target: rule == 1 ? target : nil, pin: rule == 2 ? target : nil)
            case 5: node.stickers.append(Sticky(target: rule == 1 ? target : nil, pin: rule == 2 ? target : nil))
            default: node.spare = target
            }
            graph.vertices[source] = node
        }

        func apply(in db: Database) {
            guard let vertex = db.object(ofType: Vertex.self, forPrimaryKey: source),
                let linked = db.object(ofType: Vertex.self, forPrimaryKey: target)
            else { return }
            let nexts: [ReferenceWritableKeyPath<Vertex, Vertex?>] = [\.next, \.nextCascade, \.nextDeny]
            let lists = [vertex.items, vertex.itemsCascade, vertex.itemsDeny]
            let sets = [vertex.members, vertex.membersCascade, vertex.membersDeny]
            let maps = [vertex.slots, vertex.slotsCascade, vertex.slotsDeny]
            let sticker = Sticker(label: key, target: rule == 1 ? linked : nil, pin: rule == 2 ? linked : nil)
            switch kind {
            case 0: vertex[keyPath: nexts[rule]] = linked
            case 1: lists[rule].append(linked)
            case 2: sets[rule].insert(linked)
            case 3: maps[rule][key] = linked
            case 4: vertex.sticker = sticker
            case 5: vertex.stickers.append(sticker)
            default: vertex.spare = linked
            }
        }
    }

    var vertices: [Int: Node] = [:]

    /// A random edge between existing vertices; deny edges and linkingObjects rules are drawn less often so that
    /// most deletes go through.
    static func randomEdge(in graph: GraphModel, random: inout SeededRandom) -> EdgeChange? {
        let ids = graph.vertices.keys.sorted()
        guard !ids.isEmpty else { return nil }
        let roll = random.below(10)
        let rule = roll < 5 ? 0 : roll < 9 ? 1 : 2
        return EdgeChange(
            source: ids[random.below(ids.count)], kind: random.below(7), rule: rule,
            target: ids[random.below(ids.count)], key: ["a", "b", "c"][random.below(3)])
    }

    /// The graph after one delete of `roots`, or `nil` when a deny refuses it.
    func deleting(_ roots: [Int]) -> GraphModel? {
        var doomed = Set(roots.filter { vertices[$0] != nil })
        var grew = true
        while grew {
            grew = false
            for id in doomed {
                guard let node = vertices[id] else { continue }
                // memberOfCascade: the vertices whose `members` hold this one go too.
                let holders = vertices.filter { $0.value.members[0].contains(id) }.map(\.key)
                for target in node.reached(1) + holders where vertices[target] != nil {
                    if doomed.insert(target).inserted { grew = true }
                }
            }
        }
        for id in doomed {
            guard let node = vertices[id] else { continue }
            // slotOfDeny: the vertices whose `slots` hold this one deny.
            let holders = vertices.filter { $0.value.slots[0].values.contains(.some(id)) }.map(\.key)
            if (node.reached(2) + holders).contains(where: { !doomed.contains($0) }) { return nil }
        }
        var result = GraphModel()
        for (id, node) in vertices where !doomed.contains(id) { result.vertices[id] = node.nullifying(doomed) }
        return result
    }

    /// The model as ``GraphRendering/render(_:)`` renders the file.
    var rendered: [Int: String] {
        vertices.mapValues { node in
            func id(_ value: Int?) -> String { value.map { "\($0)" } ?? "-" }
            func list(_ ids: [Int]) -> String { ids.map { "\($0)" }.joined(separator: ",") }
            func map(_ slots: [String: Int?]) -> String {
                slots.map { "\($0.key):\(id($0.value))" }.sorted().joined(separator: ",")
            }
            func sticky(_ sticky: Sticky?) -> String { sticky.map { "(\(id($0.target)) \(id($0.pin)))" } ?? "-" }
            return [
                "next " + node.next.map(id).joined(separator: " "),
                "items " + node.items.map { "[\(list($0))]" }.joined(separator: " "),
                "members " + node.members.map { "{\(list($0.sorted()))}" }.joined(separator: " "),
                "slots " + node.slots.map { "{\(map($0))}" }.joined(separator: " "),
                "sticker \(sticky(node.sticker)) [\(node.stickers.map(sticky).joined(separator: ","))]",
                "spare \(id(node.spare))",
            ].joined(separator: "; ")
        }
    }
}

/// A small seeded generator (SplitMix64), so that a failure can be replayed.
private struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

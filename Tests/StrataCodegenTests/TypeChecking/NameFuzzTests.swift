import Foundation
import StrataCodegen
import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Every schema the compiler accepts generates code that compiles (issue #23 item 1): seeded random schemas whose
/// schema, model, property and enum names and docs come from pools of troublesome names (members of `Object`,
/// types the generated code uses, keywords, characters Swift rejects, line separators in docs) are compiled
/// in-process, and the generated code of every accepted one is type-checked with `swiftc -typecheck` against the
/// built modules, many schemas per `swiftc` run. `STRATA_LONG_TESTS=1` checks ten times as many;
/// `STRATA_FUZZ_SEED=<number>` draws other schemas (a failure names the seed).
final class NameFuzzTests: XCTestCase {
    /// Schemas per run: bounded by default, larger with `STRATA_LONG_TESTS=1`.
    private var schemaCount: Int { ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 3_000 : 300 }

    func testEveryAcceptedSchemaGeneratesCodeThatTypeChecks() throws {
        let checker = try SwiftTypeChecker()
        let seed = ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_2023
        var generator = FuzzSchemaGenerator(seed: seed)
        var accepted: [(yaml: [String], history: SchemaHistory)] = []
        var refused = 0
        for _ in 0..<schemaCount {
            let files = generator.schemaFiles()
            let compilation = SchemaCompiler().compile(sources: files.enumerated().map { index, text in
                SchemaSource(path: "Fuzz.v\(index + 1).strata.yaml", text: text)
            })
            if compilation.hasErrors {
                refused += 1
                for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
                    XCTAssertNotNil(diagnostic.location, "an error without a position: \(diagnostic)")
                }
            } else if let history = compilation.histories.first {
                accepted.append((files, history))
            }
        }
        // Both outcomes must occur, or the pools no longer exercise what they are for.
        XCTAssertGreaterThan(accepted.count, schemaCount / 5, "too few schemas accepted")
        XCTAssertGreaterThan(refused, schemaCount / 10, "too few schemas refused")

        for batch in Self.batches(accepted) {
            let text = SwiftGenerator().generate(batch.map(\.history))
            let outcome = try checker.typeCheck([("Generated.swift", text)], moduleName: "FuzzApp")
            guard !outcome.succeeded else { continue }
            let schemas = batch.map { $0.yaml.joined(separator: "\n---- next version ----\n") }
            XCTFail("generated code of accepted schemas (seed \(seed)) does not compile:\n"
                + String(outcome.output.prefix(6_000)) + "\nschemas:\n" + schemas.joined(separator: "\n====\n"))
        }
    }

    /// Groups histories so that no two in a group generate the same top-level name (the schema type, its
    /// migrations protocol, a model class): each group compiles as one module.
    private static func batches(
        _ histories: [(yaml: [String], history: SchemaHistory)]
    ) -> [[(yaml: [String], history: SchemaHistory)]] {
        var batches: [(names: Set<String>, members: [(yaml: [String], history: SchemaHistory)])] = []
        for entry in histories {
            var names: Set<String> = [entry.history.name, entry.history.name + "Migrations"]
            names.formUnion(entry.history.current.models.map(\.name))
            if let index = batches.firstIndex(where: { $0.names.isDisjoint(with: names) && $0.members.count < 40 }) {
                batches[index].names.formUnion(names)
                batches[index].members.append(entry)
            } else {
                batches.append((names, [entry]))
            }
        }
        return batches.map(\.members)
    }
}

import Foundation
import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Malformed input never crashes the compiler, and every error it reports has a position.
///
/// A bounded run is part of the default suite; `STRATA_LONG_TESTS=1` runs many more mutations.
final class FuzzTests: SchemaTestCase {
    private var iterations: Int {
        ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1" ? 200_000 : 3_000
    }

    /// In long runs each input is written here before it is compiled, so a crash leaves its input behind.
    private var lastInputPath: String? {
        ProcessInfo.processInfo.environment["STRATA_LONG_TESTS"] == "1"
            ? NSTemporaryDirectory() + "strata-schema-fuzz-last-input.yaml" : nil
    }

    func testMutatedExampleNeverCrashesAndEveryErrorHasALocation() {
        var random = SplitMix64(seed: 0x5EED_2026)
        var errorsSeen = 0
        for iteration in 0..<iterations {
            var text = Examples.libraryV3
            for _ in 0..<(1 + random.next(below: 3)) {
                text = mutate(text, using: &random)
            }
            let withHistory = iteration % 4 == 0
            let sources = withHistory
                ? [SchemaSource(path: "Library.v2.strata.yaml", text: Examples.libraryV2),
                    SchemaSource(path: "Library.v3.strata.yaml", text: text)]
                : [SchemaSource(path: "Library.v3.strata.yaml", text: text)]
            if let lastInputPath { try? Data(text.utf8).write(to: URL(fileURLWithPath: lastInputPath)) }
            let compilation = compiler.compile(sources: sources)
            check(compilation, input: text)
            if compilation.hasErrors { errorsSeen += 1 }
        }
        XCTAssertGreaterThan(errorsSeen, iterations / 4, "the mutations should mostly produce errors")
    }

    func testDeepNestingIsAnErrorNotACrash() {
        for depth in [10, 500, 5_000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let mapping = String(repeating: "{a: ", count: depth) + "b" + String(repeating: "}", count: depth)
            for value in [nested, mapping] {
                let compilation = compile(Examples.minimal(properties: "id: \(value)"))
                XCTAssertTrue(compilation.hasErrors, "depth \(depth)")
                check(compilation, input: value)
            }
        }
    }

    func testAliasBombIsRefusedAtItsFirstAlias() {
        var lines = ["schema: Shop", "version: 1", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(refs)]")
        }
        lines += ["models:", "  Item:", "    doc: *a9", "    properties:", "      level: { enum: *a9 }"]
        let compilation = compile(lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(compilation.diagnostics.map(\.description), [
            "Test.strata.yaml:4:10: error: YAML aliases ('*a0') are not supported in schema files: write the value "
                + "out where it is used",
        ])
    }

    func testHugeAndSexagesimalNumbersAreErrorsNotTraps() {
        for value in ["99999999999999999999999999", "-99999999999999999999999", "3000000000000000000:00:00",
            "0x" + String(repeating: "F", count: 40), "1e99999", ".inf", "0b" + String(repeating: "1", count: 80)] {
            check(compile(Examples.minimal(properties: "n: { type: int, default: \(value) }")), input: value)
            check(compile("schema: Shop\nversion: \(value)\nmodels: {}\n"), input: value)
            check(compile(Examples.minimal(properties: "n: { type: float, default: \(value) }")), input: value)
        }
    }

    // MARK: - Checking

    private func check(_ compilation: SchemaCompilation, input: String, file: StaticString = #filePath,
        line: UInt = #line) {
        for diagnostic in compilation.diagnostics where diagnostic.severity == .error {
            guard let location = diagnostic.location else {
                XCTFail("error without location: \(diagnostic)\ninput:\n\(input)", file: file, line: line)
                continue
            }
            XCTAssertGreaterThanOrEqual(location.line, 1, "\(diagnostic)", file: file, line: line)
            XCTAssertGreaterThanOrEqual(location.column, 1, "\(diagnostic)", file: file, line: line)
            XCTAssertFalse(diagnostic.message.isEmpty, file: file, line: line)
        }
        if compilation.hasErrors {
            XCTAssertEqual(compilation.histories, [], file: file, line: line)
        }
    }

    // MARK: - Mutations

    private static let tokens = [
        "schema", "version", "models", "properties", "primaryKey", "indexes", "removed", "renamedFrom", "migrate",
        "removedModels", "access", "type", "default", "indexed", "transient", "doc", "enum", "linkingObjects",
        "optional", "int", "int8", "string?", "[Book]", "Book", "Person.loans", "auto", "null", "~", "?", "[", "]",
        "{", "}", ":", ": ", "- ", ",", "&a ", "*a", "!!str ", "<<: ", "\"", "'", "#", "|", ">", "\t", "\n",
        "99999999999999999999", "-1", "0", "1:30:00", "true", ".nan", "Person", "Loan", "id", "custom", "[[", "]]",
    ]

    private func mutate(_ text: String, using random: inout SplitMix64) -> String {
        var lines = text.components(separatedBy: "\n")
        var scalars = Array(text.unicodeScalars)
        switch random.next(below: 9) {
        case 0 where !lines.isEmpty:
            lines.remove(at: random.next(below: lines.count))
            return lines.joined(separator: "\n")
        case 1 where !lines.isEmpty:
            let index = random.next(below: lines.count)
            lines.insert(lines[index], at: index + random.next(below: 2))
            return lines.joined(separator: "\n")
        case 2 where scalars.count > 2:
            let index = random.next(below: scalars.count - 1)
            scalars.swapAt(index, index + 1)
        case 3:
            let byte = UInt32(random.next(below: 256))
            let scalar = Unicode.Scalar(byte) ?? "?"
            scalars.insert(scalar, at: random.next(below: scalars.count + 1))
        case 4:
            let value = UInt32(random.next(below: 0x3_0000))
            if let scalar = Unicode.Scalar(value) {
                scalars.insert(scalar, at: random.next(below: scalars.count + 1))
            }
        case 5:
            scalars = Array(scalars.prefix(random.next(below: scalars.count + 1)))
        case 6:
            let depth = 1 + random.next(below: 1_200)
            let opener = random.next(below: 2) == 0 ? "[" : "{a: "
            let nesting = String(repeating: opener, count: depth)
            scalars.insert(contentsOf: nesting.unicodeScalars, at: random.next(below: scalars.count + 1))
        case 7:
            let token = Self.tokens[random.next(below: Self.tokens.count)]
            scalars.insert(contentsOf: token.unicodeScalars, at: random.next(below: scalars.count + 1))
        default:
            // Replace a word with a token, so that keys and types change into near misses and wrong kinds.
            guard let index = lines.indices.randomElement(using: &random) else { break }
            let token = Self.tokens[random.next(below: Self.tokens.count)]
            let words = lines[index].split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            guard !words.isEmpty else { break }
            var changed = words
            changed[random.next(below: words.count)] = token
            lines[index] = changed.joined(separator: " ")
            return lines.joined(separator: "\n")
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

/// A small deterministic generator, so that a failing mutation can be reproduced from the seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next() % UInt64(bound))
    }
}

extension FuzzTests {
    func testAliasBombUsedAsAMappingKeyIsRefusedQuickly() {
        var lines = ["schema: Shop", "version: 1", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            let refs = Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(refs)]")
        }
        lines += ["models:", "  *a9 : x", "  *a9 : y"]
        let compilation = compile(lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(compilation.diagnostics.count, 1)
        XCTAssertTrue(compilation.diagnostics.first?.message.contains("YAML aliases") == true)
    }
}

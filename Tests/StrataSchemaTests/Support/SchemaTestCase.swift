import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Base class for schema compiler tests: compiles YAML strings and asserts on diagnostics by position.
class SchemaTestCase: XCTestCase {
    let compiler = SchemaCompiler()

    /// Compiles in-memory files given as (path, text).
    func compile(_ files: [(String, String)]) -> SchemaCompilation {
        compiler.compile(sources: files.map { SchemaSource(path: $0.0, text: $0.1) })
    }

    /// Compiles a single file named `path`.
    func compile(_ text: String, path: String = "Test.strata.yaml") -> SchemaCompilation {
        compile([(path, text)])
    }

    /// Asserts that compiling `files` gives exactly one error, at `path:line:column`, whose message contains
    /// every fragment; returns the diagnostic.
    @discardableResult
    func assertSingleError(
        _ files: [(String, String)], path: String? = nil, line: Int, column: Int, contains fragments: [String],
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) -> Diagnostic? {
        let compilation = compile(files)
        let errors = compilation.diagnostics.filter { $0.severity == .error }
        guard errors.count == 1, let error = errors.first else {
            XCTFail("expected one error, got:\n" + compilation.diagnostics.map(\.description).joined(separator: "\n"),
                file: file, line: sourceLine)
            return nil
        }
        let expectedPath = path ?? files.last?.0 ?? ""
        XCTAssertEqual(error.location?.path, expectedPath, "path of: \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.location?.line, line, "line of: \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.location?.column, column, "column of: \(error)", file: file, line: sourceLine)
        for fragment in fragments {
            XCTAssertTrue(error.message.contains(fragment), "'\(fragment)' not in: \(error)", file: file,
                line: sourceLine)
        }
        XCTAssertTrue(compilation.histories.isEmpty, "a schema with errors produced histories", file: file,
            line: sourceLine)
        XCTAssertTrue(error.description.hasPrefix("\(expectedPath):\(line):\(column): error: "), file: file,
            line: sourceLine)
        return error
    }

    /// The same for a single file.
    @discardableResult
    func assertSingleError(
        _ text: String, path: String = "Test.strata.yaml", line: Int, column: Int, contains fragments: [String],
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) -> Diagnostic? {
        assertSingleError([(path, text)], line: line, column: column, contains: fragments, file: file,
            sourceLine: sourceLine)
    }

    /// Compiles and asserts there is no error; returns the only history.
    func compileWithoutErrors(
        _ files: [(String, String)], file: StaticString = #filePath, line: UInt = #line
    ) -> SchemaHistory? {
        let compilation = compile(files)
        let errors = compilation.diagnostics.filter { $0.severity == .error }
        XCTAssertTrue(errors.isEmpty, errors.map(\.description).joined(separator: "\n"), file: file, line: line)
        XCTAssertEqual(compilation.histories.count, 1, file: file, line: line)
        return compilation.histories.first
    }

    /// Compiles one file without errors; returns its only version.
    func loadVersion(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> SchemaVersion? {
        compileWithoutErrors([("Test.strata.yaml", text)], file: file, line: line)?.versions.first
    }
}

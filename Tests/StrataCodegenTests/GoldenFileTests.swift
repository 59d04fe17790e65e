import XCTest
import StrataCodegen
import StrataSchema

/// Pins the generated text. Re-record after an intended change with `STRATA_RECORD_GOLDEN=1 swift test`.
final class GoldenFileTests: XCTestCase {
    func testFixtureModelsMatchTheCheckedInGeneratedFile() throws {
        let text = SwiftGenerator(fingerprint: FixtureSchemas.fingerprint).generate(FixtureSchemas.all)
        try GoldenFile(relativePath: "Generated/FixtureModels.swift").check(text)
    }
}

import Foundation
import StrataCodegen
import StrataSchemaCompiler
import XCTest

/// A schema with `decimal`, `objectId` and `any` in every form (optional, list, set, map, default, `auto`,
/// primary key, index), generated and type-checked with app code that uses them, as an app's build would; and the accessor
/// calls the generated properties make.
final class MoreTypesCodegenTests: XCTestCase {
    static let schema = """
        schema: Vault
        version: 1
        models:
          Safe:
            primaryKey: id
            properties:
              id: { type: objectId, default: auto }
              total: { type: decimal, default: "10.25", indexed: true }
              fee: { type: decimal, default: 0 }
              cap: decimal?
              code: { type: objectId?, indexed: true }
              fixed: { type: objectId, default: "507f1f77bcf86cd799439011" }
              content: { type: any, indexed: true }
              amounts: "[decimal]"
              codes: "[objectId]"
              items: "[any]"
              coins: set<decimal>
              seals: set<objectId>
              charms: set<any>
              prices: map<decimal>
              stamps: map<objectId>
              extras: map<any?>
          Box:
            properties:
              label: string

        """

    static let appCode = """
        import Foundation
        @_spi(StrataGenerated) import Strata

        func use(_ db: Database) throws {
            let safe = Safe(total: Decimal(string: "1.5")!, content: .string("gold"))
            let id: ObjectId = safe.id
            let total: Decimal = safe.total
            let cap: Decimal? = safe.cap
            let code: ObjectId? = safe.code
            let content: AnyValue = safe.content
            safe.items.append(.object(Box(label: "b")))
            safe.amounts.append(total)
            safe.codes.append(ObjectId.generate())
            safe.coins.insert(total)
            safe.seals.insert(id)
            safe.charms.insert(.object(Box(label: "c")))
            safe.prices["tea"] = Decimal(2)
            safe.stamps["made"] = id
            safe.extras["box"] = .object(Box(label: "d"))
            safe.extras["none"] = AnyValue.none
            try db.write { db.add(safe) }
            _ = try db.objects(Safe.self).where { $0.total > Decimal(1) && $0.id == id && $0.content == AnyValue.int(1) }
            _ = try db.objects(Safe.self).filter("code == oid(507f1f77bcf86cd799439011) AND total > 1.5")
            _ = try db.objects(Safe.self).filter("ANY extras.@allValues == 5 OR ANY coins > 1")
            _ = (cap, code, content)
        }

        """

    private func generated() throws -> String {
        let compilation = SchemaCompiler().compile(sources: [SchemaSource(path: "Vault.v1.strata.yaml", text: Self.schema)])
        XCTAssertEqual(compilation.diagnostics.map(\.description), [])
        return SwiftGenerator().generate(compilation.histories)
    }

    func testTheGeneratedPropertiesCallTheNewAccessorsAndDefaults() throws {
        let text = try generated()
        for fragment in [
            "var id: ObjectId", "accessor.objectId(at: 0)", "accessor.setObjectId(newValue, at: 0)", "id: ObjectId = ObjectId.generate()",
            "var total: Decimal", "accessor.decimal(at: 1)", "total: Decimal = Decimal(string: \"10.25\")!",
            "var cap: Decimal?", "accessor.optionalDecimal(at: 3)", "var code: ObjectId?", "accessor.setOptionalObjectId(newValue, at: 4)",
            "try! ObjectId(string: \"507f1f77bcf86cd799439011\")", "var content: AnyValue", "accessor.anyValue(at: 6)",
            "accessor.setAnyValue(newValue, at: 6)", "content: AnyValue = .none", "List<Decimal>", "List<ObjectId>", "List<AnyValue>",
            "MutableSet<Decimal>", "MutableSet<ObjectId>", "MutableSet<AnyValue>", "Map<String, Decimal>",
            "Map<String, ObjectId>", "Map<String, AnyValue>",
            ".decimal", ".objectId", ".any",
        ] {
            XCTAssertTrue(text.contains(fragment), "the generated code lacks `\(fragment)`")
        }
    }

    func testTheGeneratedCodeAndAnAppUsingItTypeCheck() throws {
        let checker = try SwiftTypeChecker()
        let outcome = try checker.typeCheck([("Vault.generated.swift", try generated()), ("App.swift", Self.appCode)])
        XCTAssertTrue(outcome.succeeded, outcome.output)
    }
}

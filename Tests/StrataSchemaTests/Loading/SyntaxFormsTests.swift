import StrataSchema
import StrataSchemaCompiler
import XCTest

/// Every way docs/SCHEMA.md lets a property be written reads into the same model.
final class SyntaxFormsTests: SchemaTestCase {
    private func properties(_ lines: String) throws -> [String: PropertyDefinition] {
        let text = """
            schema: Shop
            version: 1
            models:
              Item:
                properties:
            \(lines)
              Tag:
                properties:
                  name: string
                  item: Item?

            """
        let version = try XCTUnwrap(loadVersion(text))
        let item = try XCTUnwrap(version.model(named: "Item"))
        return Dictionary(uniqueKeysWithValues: item.properties.map { ($0.name, $0) })
    }

    func testFlowStyleLongFormIsReadLikeBlockStyle() throws {
        let flow = try properties("      title: { type: string, indexed: true, default: x, doc: The title. }")
        let block = try properties("""
                  title:
                    type: string
                    indexed: true
                    default: x
                    doc: The title.
            """)
        XCTAssertEqual(flow["title"]?.type, .string)
        XCTAssertEqual(flow["title"]?.isIndexed, true)
        XCTAssertEqual(flow["title"]?.defaultValue, .string("x"))
        XCTAssertEqual(flow["title"]?.doc, "The title.")
        XCTAssertEqual(flow["title"]?.type, block["title"]?.type)
        XCTAssertEqual(flow["title"]?.defaultValue, block["title"]?.defaultValue)
        XCTAssertEqual(flow["title"]?.doc, block["title"]?.doc)
    }

    func testListTypesReadFromYAMLListsAndFromQuotedText() throws {
        let read = try properties("""
                  a: [int32]
                  b: "[int32]"
                  c: { type: [Tag] }
                  d: { type: "[Tag]" }
            """)
        XCTAssertEqual(read["a"]?.type, .list(.integer(.int32)))
        XCTAssertEqual(read["b"]?.type, .list(.integer(.int32)))
        XCTAssertEqual(read["c"]?.type, .list(.link("Tag")))
        XCTAssertEqual(read["d"]?.type, .list(.link("Tag")))
    }

    func testEveryPrimitiveTypeAndItsOptionalAreRead() throws {
        let names = ["bool", "int", "int64", "int32", "int16", "int8", "float", "double", "string", "date", "data",
            "uuid"]
        let lines = names.map { "      p\($0): \($0)\n      o\($0): \($0)?" }.joined(separator: "\n")
        let read = try properties(lines)
        let expected: [String: PropertyType] = [
            "bool": .bool, "int": .integer(.int), "int64": .integer(.int64), "int32": .integer(.int32),
            "int16": .integer(.int16), "int8": .integer(.int8), "float": .float, "double": .double,
            "string": .string, "date": .date, "data": .data, "uuid": .uuid,
        ]
        for (name, type) in expected {
            XCTAssertEqual(read["p\(name)"]?.type, type, name)
            XCTAssertEqual(read["o\(name)"]?.type, .optional(type), name)
        }
    }

    func testEnumFormsIncludingOptionalAndTypeMapping() throws {
        let read = try properties("""
                  a: { enum: [low, high] }
                  b: { enum: [low, high], optional: true }
                  c: { type: { enum: [on, off] } }
            """)
        XCTAssertEqual(read["a"]?.type, .enumeration(["low", "high"]))
        XCTAssertEqual(read["b"]?.type, .optional(.enumeration(["low", "high"])))
        XCTAssertEqual(read["c"]?.type, .enumeration(["on", "off"]), "YAML 1.1 booleans stay case names")
    }

    func testDefaultsAreReadAndNormalizedForTheirType() throws {
        let read = try properties("""
                  a: { type: int8, default: 0x7F }
                  b: { type: double, default: 2 }
                  c: { type: float, default: 1.5 }
                  d: { type: bool, default: false }
                  e: { type: string, default: "42" }
                  f: { type: date, default: 2024-02-29 }
                  g: { type: date?, default: "2024-01-31 12:30:00" }
                  h: { type: uuid, default: e621e1f8-c36c-495a-93fc-0c247a3e6e5f }
                  i: { type: data, default: "AAEC" }
                  j: { type: string?, default: null }
                  k: { type: int64, default: -9223372036854775808 }
                  l: { type: int, default: 1_000 }
            """)
        XCTAssertEqual(read["a"]?.defaultValue, .integer(127))
        XCTAssertEqual(read["b"]?.defaultValue, .double(2))
        XCTAssertEqual(read["c"]?.defaultValue, .double(1.5))
        XCTAssertEqual(read["d"]?.defaultValue, .bool(false))
        XCTAssertEqual(read["e"]?.defaultValue, .string("42"))
        XCTAssertEqual(read["f"]?.defaultValue, .string("2024-02-29T00:00:00Z"))
        XCTAssertEqual(read["g"]?.defaultValue, .string("2024-01-31T12:30:00Z"))
        XCTAssertEqual(read["h"]?.defaultValue, .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(read["i"]?.defaultValue, .string("AAEC"))
        XCTAssertEqual(read["j"]?.defaultValue, .null)
        XCTAssertEqual(read["k"]?.defaultValue, .integer(Int64.min))
        XCTAssertEqual(read["l"]?.defaultValue, .integer(1000))
    }

    func testRenamedFromOnModelAndAccessDefaultToInternal() throws {
        let text = """
            schema: Shop
            version: 1
            models:
              Item:
                renamedFrom: Thing
                properties:
                  id: int

            """
        let version = try XCTUnwrap(loadVersion(text))
        XCTAssertEqual(version.access, .internal)
        XCTAssertEqual(version.model(named: "Item")?.renamedFrom, "Thing")
    }

    func testSwiftKeywordsAreAcceptedAsPropertyNames() throws {
        let read = try properties("""
                  class: string
                  default: int
                  where: bool
                  type: { type: string }
            """)
        XCTAssertEqual(read["class"]?.type, .string)
        XCTAssertEqual(read["default"]?.type, .integer(.int))
        XCTAssertEqual(read["where"]?.type, .bool)
        XCTAssertEqual(read["type"]?.type, .string)
    }

    func testSingleNameRemovedListsAreAccepted() throws {
        let version = try XCTUnwrap(loadVersion(Examples.minimal(extra: "    removed: oldName")))
        XCTAssertEqual(version.models.first?.removedProperties, ["oldName"])
    }

    func testEmptyModelsMappingIsAVersionWithoutModels() throws {
        let version = try XCTUnwrap(loadVersion("schema: Empty\nversion: 1\nmodels: {}\n"))
        XCTAssertEqual(version.models, [])
    }
}

import Foundation
import StrataStorage
import StrataStudio
import StrataTestSupport
import XCTest

/// The API behind the page, over a live server: listing, paging, sorting, querying, editing and their errors.
final class StudioEndpointTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var path: String { directory.url.appendingPathComponent("town.strata").path }
    private var studio: LiveStudio!

    override func setUp() async throws {
        directory = try TemporaryDirectory(prefix: "strata-studio")
        try StudioFixture.write(at: path, extraPeople: 120)
        studio = try await LiveStudio(StudioConfiguration(path: path))
    }

    override func tearDown() async throws {
        await studio?.stop()
        studio = nil
        directory = nil
    }

    private func rows(_ page: [String: Any]) -> [[Any]] {
        (page["rows"] as? [[String: Any]] ?? []).compactMap { $0["values"] as? [Any] }
    }

    private func names(_ page: [String: Any]) -> [String] {
        let columns = (page["columns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let index = columns.firstIndex(of: "name") ?? 0
        return rows(page).compactMap { $0[index] as? String }
    }

    func testThePageAndItsAssetsAreServedFromTheExecutable() async throws {
        let page = try await studio.request("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("<title>Strata Studio</title>"))
        XCTAssertFalse(page.text.contains("http://") || page.text.contains("https://"), "no resource from a CDN")
        let script = try await studio.request("/studio.js")
        XCTAssertEqual(script.status, 200)
        XCTAssertTrue(script.text.contains("EventSource"))
        let style = try await studio.request("/studio.css")
        XCTAssertEqual(style.status, 200)
    }

    func testStatusDescribesTheFileAndItsSpace() async throws {
        let status = try await studio.request("/api/status").json()
        XCTAssertEqual(status["path"] as? String, path)
        let segments = try XCTUnwrap(status["segments"] as? [[String: Any]])
        XCTAssertEqual(segments.compactMap { $0["name"] as? String }, ["used", "free", "waiting", "unallocated"])
        let used = try XCTUnwrap(segments.first?["bytes"] as? Int)
        XCTAssertGreaterThan(used, 0)
        XCTAssertEqual(status["usedBytes"] as? Int, used)
        let models = try XCTUnwrap(status["models"] as? [[String: Any]])
        XCTAssertEqual(models.first { $0["name"] as? String == "Person" }?["objects"] as? Int, 123)
        XCTAssertEqual(status["readOnly"] as? Bool, false)
    }

    func testSchemaListsPropertiesIndexesRulesLinkingObjectsAndHistory() async throws {
        let schema = try await studio.request("/api/schema").json()
        let models = try XCTUnwrap(schema["models"] as? [[String: Any]])
        let person = try XCTUnwrap(models.first { $0["name"] as? String == "Person" })
        XCTAssertEqual(person["primaryKey"] as? String, "id")
        let properties = try XCTUnwrap(person["properties"] as? [[String: Any]])
        XCTAssertEqual(
            properties.compactMap { $0["name"] as? String }, ["id", "name", "age", "email", "home", "pets", "tags"])
        XCTAssertEqual(properties.first { $0["name"] as? String == "home" }?["target"] as? String, "City")
        let indexes = try XCTUnwrap(person["indexes"] as? [[String: Any]])
        XCTAssertTrue(indexes.contains {
            $0["kind"] as? String == "unique" && $0["properties"] as? [String] == ["email"]
        })
        XCTAssertTrue(indexes.contains { $0["kind"] as? String == "primary key" })
        let rules = try XCTUnwrap(person["deleteRules"] as? [[String: Any]])
        XCTAssertEqual(rules.first?["property"] as? String, "pets")
        XCTAssertEqual(rules.first?["rule"] as? String, "cascade")
        let city = try XCTUnwrap(models.first { $0["name"] as? String == "City" })
        let linking = try XCTUnwrap(city["linkingObjects"] as? [[String: Any]])
        XCTAssertTrue(linking.contains { $0["model"] as? String == "Person" && $0["property"] as? String == "home" })
        let history = try XCTUnwrap(schema["history"] as? [String: Any])
        XCTAssertEqual(history["schema"] as? String, "Town")
        let versions = try XCTUnwrap(history["versions"] as? [[String: Any]])
        XCTAssertEqual(versions.count, 2)
        XCTAssertEqual(versions.last?["words"] as? String, "migrated from version 1 to 2")
    }

    func testPagesListOnlyWhatTheyShow() async throws {
        let first = try await studio.get("/api/objects", ["model": "Person", "limit": "10"]).json()
        XCTAssertEqual(rows(first).count, 10)
        XCTAssertEqual(first["total"] as? Int, 123)
        XCTAssertEqual(first["more"] as? Bool, true)
        XCTAssertEqual(Array(names(first).prefix(3)), ["Ada", "Brian", "Chloe"])
        let last = try await studio.get("/api/objects", ["model": "Person", "limit": "10", "offset": "120"]).json()
        XCTAssertEqual(rows(last).count, 3)
        XCTAssertEqual(last["more"] as? Bool, false)
        XCTAssertEqual(names(last), ["Person 117", "Person 118", "Person 119"])
        let descending = try await studio.get("/api/objects", ["model": "Person", "limit": "2", "desc": "1"]).json()
        XCTAssertEqual(names(descending), ["Person 119", "Person 118"])
        XCTAssertTrue((first["explain"] as? String ?? "").contains("positional read of 10 objects"))
    }

    func testSortingByAPropertyOrdersTheWholeModel() async throws {
        let page = try await studio.get("/api/objects", ["model": "Person", "sort": "age", "desc": "1", "limit": "3"])
            .json()
        let values = rows(page).compactMap { $0[2] as? Int }
        XCTAssertEqual(values, [89, 88, 87])
        let byName = try await studio.get("/api/objects", ["model": "Person", "sort": "name", "limit": "2"]).json()
        XCTAssertEqual(names(byName), ["Ada", "Brian"])
        let bad = try await studio.get("/api/objects", ["model": "Person", "sort": "pets"])
        XCTAssertEqual(bad.status, 400)
    }

    func testLinksAreReferencesThePageCanFollow() async throws {
        let page = try await studio.get("/api/objects", ["model": "Person", "limit": "1"]).json()
        let values = try XCTUnwrap(rows(page).first)
        let home = try XCTUnwrap((values[4] as? [String: Any])?["$ref"] as? [String: Any])
        XCTAssertEqual(home["model"] as? String, "City")
        XCTAssertEqual(home["label"] as? String, "Oslo")
        let pets = try XCTUnwrap(values[5] as? [String: Any])
        XCTAssertEqual(pets["count"] as? Int, 1)
        let key = try XCTUnwrap(home["key"] as? Int)
        let city = try await studio.get("/api/object", ["model": "City", "key": String(key)]).json()
        XCTAssertEqual(city["label"] as? String, "Oslo")
        let linking = try XCTUnwrap(city["linkingObjects"] as? [[String: Any]])
        let residents = try XCTUnwrap(linking.first { $0["property"] as? String == "home" })
        let labels = (residents["objects"] as? [[String: Any]] ?? []).compactMap {
            ($0["$ref"] as? [String: Any])?["label"] as? String
        }
        XCTAssertEqual(Array(labels.prefix(2)), ["1", "3"])
        XCTAssertEqual(labels.count, 2 + 60)
    }

    func testQueriesFilterAndExplain() async throws {
        let page = try await studio.get(
            "/api/objects",
            ["model": "Person", "filter": "age >= 36 AND home.name == 'Oslo'", "limit": "100", "count": "1"]).json()
        let found = names(page)
        XCTAssertTrue(found.contains("Ada") && found.contains("Chloe") && !found.contains("Brian"), "\(found)")
        XCTAssertTrue(found.allSatisfy { !$0.hasPrefix("Person ") || Int($0.dropFirst(7))! % 2 == 0 })
        XCTAssertEqual(page["total"] as? Int, found.count)
        XCTAssertTrue((page["explain"] as? String ?? "").hasPrefix("scan Person"), "the engine's plan: \(page)")
        let firstPage = try await studio.get("/api/objects", ["model": "Person", "filter": "age < 50", "limit": "5"])
            .json()
        XCTAssertEqual(rows(firstPage).count, 5)
        XCTAssertEqual(firstPage["more"] as? Bool, true)
        XCTAssertTrue(firstPage["total"] is NSNull, "an unfinished scan does not claim a total")
    }

    func testAMalformedPredicateAnswersWithItsPosition() async throws {
        let answer = try await studio.get("/api/objects", ["model": "Person", "filter": "age >>= 3"])
        XCTAssertEqual(answer.status, 400)
        let error = try answer.json()
        XCTAssertEqual(error["predicate"] as? String, "age >>= 3")
        let offset = try XCTUnwrap(error["offset"] as? Int)
        XCTAssertTrue((4...6).contains(offset), "offset \(offset)")
        let unknown = try await studio.get("/api/objects", ["model": "Person", "filter": "shoeSize == 3"])
        XCTAssertEqual(unknown.status, 400)
        XCTAssertTrue(unknown.text.contains("shoeSize"), unknown.text)
        let noModel = try await studio.get("/api/objects", ["model": "Dragon"])
        XCTAssertEqual(noModel.status, 404)
        XCTAssertTrue(noModel.text.contains("City, Person, Pet"), noModel.text)
    }

    func testEditingAValueWritesTheFile() async throws {
        let answer = try await studio.post(
            "/api/set", ["model": "Person", "key": 2, "property": "name", "value": "Bria"])
        XCTAssertEqual(answer.status, 200, answer.text)
        let link = try await studio.post("/api/set", ["model": "Person", "key": 2, "property": "home", "value": "Oslo"])
        XCTAssertEqual(link.status, 200, link.text)
        let list = try await studio.post(
            "/api/set", ["model": "Person", "key": 2, "property": "tags", "value": ["a", "b"]])
        XCTAssertEqual(list.status, 200, list.text)
        await studio.stop()
        studio = nil
        let store = try Store.open(path: path, options: StoreOptions(readOnly: true))
        defer { store.close() }
        let reader = try store.beginRead()
        defer { reader.end() }
        let catalog = try Catalog(reader: reader)
        let person = try XCTUnwrap(catalog.table(named: "Person"))
        let key = try XCTUnwrap(try person.find(primaryKey: .int(2)))
        XCTAssertEqual(try person.string(key, column: try XCTUnwrap(person.column(named: "name")).key), "Bria")
        XCTAssertEqual(
            try person.value(key, column: try XCTUnwrap(person.column(named: "tags")).key),
            .list([.string("a"), .string("b")]))
        let city = try XCTUnwrap(catalog.table(named: "City"))
        XCTAssertEqual(
            try person.link(key, column: try XCTUnwrap(person.column(named: "home")).key),
            try city.find(primaryKey: .string("Oslo")))
    }

    func testAWrongTypeIsRefusedAndNothingIsWritten() async throws {
        let before = try await studio.request("/api/status").json()["version"] as? Int
        let answer = try await studio.post("/api/set", ["model": "Person", "key": 1, "property": "age", "value": "old"])
        XCTAssertEqual(answer.status, 400)
        XCTAssertTrue(answer.text.contains("expected an integer"), answer.text)
        let missingLink = try await studio.post("/api/set", ["model": "Person", "key": 1, "property": "home",
                                                              "value": "Atlantis"])
        XCTAssertEqual(missingLink.status, 400)
        XCTAssertTrue(missingLink.text.contains("Atlantis"), missingLink.text)
        let after = try await studio.request("/api/status").json()["version"] as? Int
        XCTAssertEqual(before, after, "a refused edit commits nothing")
    }

    func testUniquenessAndPrimaryKeysAreEnforced() async throws {
        let clash = try await studio.post("/api/set", ["model": "Person", "key": 2, "property": "email",
                                                        "value": "ada@example.org"])
        XCTAssertEqual(clash.status, 409, clash.text)
        XCTAssertTrue(clash.text.contains("email"), clash.text)
        let duplicate = try await studio.post("/api/insert", ["model": "Person", "object": ["id": 1, "name": "Again"]])
        XCTAssertEqual(duplicate.status, 409, duplicate.text)
        let added = try await studio.post(
            "/api/insert", ["model": "Person", "object": ["id": 9, "name": "Dag", "age": 4]])
        XCTAssertEqual(added.status, 200, added.text)
        let key = try XCTUnwrap(try added.json()["key"] as? Int)
        let object = try await studio.get("/api/object", ["model": "Person", "key": String(key)]).json()
        XCTAssertEqual(object["label"] as? String, "9")
    }

    func testDeletesApplyTheFilesDeleteRules() async throws {
        let oslo = try await studio.get("/api/objects", ["model": "City", "filter": "name == 'Oslo'"]).json()
        let osloKey = try XCTUnwrap((oslo["rows"] as? [[String: Any]])?.first?["key"] as? Int)
        let denied = try await studio.post("/api/delete", ["model": "City", "key": osloKey])
        XCTAssertEqual(denied.status, 409, denied.text)
        XCTAssertTrue(denied.text.contains("City.mayor"), denied.text)
        let ada = try await studio.get("/api/objects", ["model": "Person", "filter": "id == 1"]).json()
        let adaKey = try XCTUnwrap((ada["rows"] as? [[String: Any]])?.first?["key"] as? Int)
        let deleted = try await studio.post("/api/delete", ["model": "Person", "key": adaKey])
        XCTAssertEqual(deleted.status, 200, deleted.text)
        XCTAssertEqual(try deleted.json()["deleted"] as? Int, 2, "Ada and her pet Rex (Person.pets cascades)")
        let pets = try await studio.get("/api/objects", ["model": "Pet"]).json()
        XCTAssertEqual(names(pets), ["Tom"])
    }

    func testExportAndImportAModelOrAQuery() async throws {
        let json = try await studio.get("/api/export", ["model": "Person", "filter": "age > 40", "format": "json"])
        XCTAssertEqual(json.status, 200)
        let exported = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.body) as? [[String: Any]])
        XCTAssertTrue(exported.contains { $0["name"] as? String == "Chloe" })
        XCTAssertTrue(exported.allSatisfy { ($0["age"] as? Int ?? 0) > 40 })
        let csv = try await studio.get("/api/export", ["model": "Person", "filter": "id <= 3", "format": "csv"])
        XCTAssertEqual(csv.text.components(separatedBy: "\r\n").first, "id,name,age,email,home,pets,tags")
        XCTAssertTrue(csv.text.contains("3,Chloe,52,chloe@example.org,Oslo,[],\"[\"\"art\"\",\"\"ski\"\"]\""), csv.text)

        let changed = csv.text.replacingOccurrences(of: "Chloe", with: "Cleo")
        let imported = try await studio.request(
            "/api/import?model=Person&format=csv", method: "POST", body: Data(changed.utf8))
        XCTAssertEqual(imported.status, 200, imported.text)
        XCTAssertEqual(try imported.json()["imported"] as? Int, 3)
        let cleo = try await studio.get("/api/objects", ["model": "Person", "filter": "id == 3"]).json()
        XCTAssertEqual(names(cleo), ["Cleo"])
        let jsonImport = try await studio.request(
            "/api/import?model=Pet&format=json", method: "POST", body: Data(#"[{"name": "Milo"}]"#.utf8))
        XCTAssertEqual(jsonImport.status, 200, jsonImport.text)
        let broken = try await studio.request(
            "/api/import?model=Pet&format=json", method: "POST", body: Data(#"[{"name": 4}]"#.utf8))
        XCTAssertEqual(broken.status, 400)
        XCTAssertTrue(broken.text.contains("$[0].name"), broken.text)
    }
}

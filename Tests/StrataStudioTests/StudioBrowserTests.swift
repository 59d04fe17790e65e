import Foundation
import StrataStudio
import StrataTestSupport
import XCTest

/// The page in a real browser: Debian's headless Chromium driven through chromedriver's WebDriver API. It opens
/// the page, runs a query (and a malformed one), follows a link, edits a value and checks the file changed, then
/// watches the page reload when another process commits. Screenshots go to a folder under the temporary
/// directory, which the test prints (or to `STRATA_STUDIO_SCREENSHOTS` when set).
///
/// Runs when `STRATA_STUDIO_BROWSER=1` (`.ci/run` installs chromium and chromium-driver and sets it).
final class StudioBrowserTests: XCTestCase {
    func testOpenQueryFollowAndEditInABrowser() async throws {
        guard ProcessInfo.processInfo.environment["STRATA_STUDIO_BROWSER"] == "1" else {
            throw XCTSkip(
                "the browser test runs with STRATA_STUDIO_BROWSER=1 (and chromium, chromium-driver installed)")
        }
        let directory = try TemporaryDirectory(prefix: "strata-studio-browser")
        let path = directory.url.appendingPathComponent("town.strata").path
        try StudioFixture.write(at: path, extraPeople: 200)
        let shots = URL(fileURLWithPath: ProcessInfo.processInfo.environment["STRATA_STUDIO_SCREENSHOTS"]
            ?? NSTemporaryDirectory() + "strata-studio-screenshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        print("Strata Studio browser test: screenshots in \(shots.path)")
        let strata = try BuiltExecutable(named: "strata")

        try await LiveStudio.with(StudioConfiguration(path: path)) { studio in
            let browser = try await WebDriver()
            do {
                try await browser.open(studio.address)
                try await browser.waitForText("#status-view") { $0.contains("File status") }
                try await browser.screenshot(to: shots.appendingPathComponent("1-status.png"))

                // The table, then a query.
                try await browser.click("#models a[data-model='Person']")
                try await browser.waitForText("#page-info") { $0.contains("of 203") }
                try await browser.type("age >= 36 AND home.name == 'Oslo'", into: "#query-input")
                try await browser.click("#query-run")
                let grid = try await browser.waitForText("#grid") { $0.contains("Chloe") && !$0.contains("Brian") }
                XCTAssertTrue(grid.contains("Ada"))
                let explain = try await browser.text("#explain")
                XCTAssertTrue(explain.contains("scan Person (age >= 36"), "the engine's plan: \(explain)")
                try await browser.screenshot(to: shots.appendingPathComponent("2-query.png"))

                // A malformed predicate: the error under the box, with a caret at its position.
                try await browser.type("age >>= 3", into: "#query-input")
                try await browser.click("#query-run")
                let error = try await browser.waitForText("#query-error") { $0.contains("^") }
                XCTAssertTrue(error.hasPrefix("age >>= 3\n"), error)
                try await browser.screenshot(to: shots.appendingPathComponent("3-predicate-error.png"))

                // Follow a link: Ada's home.
                try await browser.type("id == 1", into: "#query-input")
                try await browser.click("#query-run")
                try await browser.waitForText("#grid") { $0.contains("Ada") && !$0.contains("Chloe") }
                try await browser.click("#grid a.ref[data-model='City']")
                try await browser.waitForText("#object-title") { $0 == "City Oslo" }
                let linking = try await browser.text("#object-linking")
                XCTAssertTrue(linking.contains("Person.home"), linking)
                try await browser.screenshot(to: shots.appendingPathComponent("4-link.png"))

                // Back to Ada through the linking objects, and edit her name.
                try await browser.click("#object-linking a.ref[data-model='Person']")
                try await browser.waitForText("#object-title") { $0 == "Person 1" }
                try await browser.click("button.edit[data-property='name']")
                try await browser.type("Ada Lovelace", into: "#edit-value")
                try await browser.click("#edit-save")
                try await browser.waitForText("#object-properties") { $0.contains("Ada Lovelace") }
                try await browser.screenshot(to: shots.appendingPathComponent("5-edited.png"))
                // Another process reads the file and sees the edit.
                let exported = try strata.run(["export", path, "Person", "--filter", "id == 1"])
                XCTAssertEqual(exported.status, 0, exported.errorOutput)
                XCTAssertTrue(exported.output.contains("\"name\":\"Ada Lovelace\""), exported.output)

                // A wrong-type edit is refused in the dialog.
                try await browser.click("button.edit[data-property='age']")
                try await browser.type("\"old\"", into: "#edit-value")
                try await browser.click("#edit-save")
                let refused = try await browser.waitForText("#edit-error") { $0.contains("expected an integer") }
                XCTAssertTrue(refused.contains("$.age"), refused)
                try await browser.click("#edit-cancel")

                // Another process commits: the open table reloads by itself.
                try await browser.click("#models a[data-model='Pet']")
                try await browser.waitForText("#page-info") { $0.contains("of 2") }
                let json = directory.url.appendingPathComponent("pets.json")
                try Data(#"[{"name": "Luna"}]"#.utf8).write(to: json)
                let outcome = try strata.run(["import", path, "Pet", json.path])
                XCTAssertEqual(outcome.status, 0, outcome.errorOutput)
                try await browser.waitForText("#grid") { $0.contains("Luna") }

                // The view the README shows.
                try await browser.click("#models a[data-model='Person']")
                try await browser.type("age >= 30", into: "#query-input")
                try await browser.click("#query-run")
                try await browser.waitForText("#page-info") { $0.contains("1–50") }
                try await browser.screenshot(to: shots.appendingPathComponent("studio.png"))
            } catch {
                try? await browser.screenshot(to: shots.appendingPathComponent("failure.png"))
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }
}

import XCTest

@testable import StrataSyncServer

/// `ChangeNotifier` wakes a waiting download for announcements it may care about: those naming its user, and those
/// to everyone; and `ChangeLog`'s `NOTIFY` payload carries the audience between server processes.
final class ChangeNotifierTests: XCTestCase {
    func testAnAnnouncementWakesItsAudienceOnly() async throws {
        let notifier = ChangeNotifier()
        let seen = notifier.generation(for: "bob")
        notifier.announce(1, audience: ["alice"])
        XCTAssertEqual(notifier.generation(for: "bob"), seen, "alice's changes are nothing to bob")
        XCTAssertGreaterThan(notifier.generation(for: "alice"), seen)

        let started = ContinuousClock.now
        async let bobWaits: Void = notifier.wait(past: seen, for: "bob", timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(100))
        notifier.announce(2, audience: ["carol"])
        try await Task.sleep(for: .milliseconds(100))
        notifier.announce(3, audience: nil)
        await bobWaits
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "an announcement to everyone woke bob")
        XCTAssertGreaterThan(notifier.generation(for: "bob"), seen)

        // A sequence number announced twice (directly, then by NOTIFY) counts once.
        let before = notifier.generation
        notifier.announce(3, audience: nil)
        XCTAssertEqual(notifier.generation, before)
    }

    func testTheNotificationPayloadCarriesTheAudience() {
        XCTAssertNil(ChangeLog.audience(["alice", nil]), "a shared change is for everyone")
        XCTAssertEqual(ChangeLog.audience(["alice", "bob", "alice"]), ["alice", "bob"])
        let suffix = ChangeLog.payloadSuffix(["bob", "alice"])
        XCTAssertEqual(suffix, "\talice\tbob")
        XCTAssertEqual(ChangeLog.parsePayload("42" + suffix)?.sequence, 42)
        XCTAssertEqual(ChangeLog.parsePayload("42" + suffix)?.audience, ["alice", "bob"])
        XCTAssertEqual(ChangeLog.parsePayload("42")?.sequence, 42)
        XCTAssertNil(ChangeLog.parsePayload("42")?.audience ?? nil)
        XCTAssertNil(ChangeLog.parsePayload("not a number"))
        XCTAssertEqual(ChangeLog.payloadSuffix(["tab\there"]), "", "an id with a tab cannot be listed: everyone")
        XCTAssertEqual(ChangeLog.payloadSuffix(nil), "")
    }
}

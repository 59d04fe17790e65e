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

    func testAClientsOwnAnnouncementsDoNotMoveItsGeneration() async throws {
        let notifier = ChangeNotifier()
        let seen = notifier.generation(for: "alice", client: "c1")
        notifier.announce(1, audience: ["alice"], origin: "c1")
        notifier.announce(2, audience: ["alice"], origin: "c1")
        XCTAssertEqual(notifier.generation(for: "alice", client: "c1"), seen, "c1's own uploads are nothing new to c1")
        XCTAssertGreaterThan(notifier.generation(for: "alice", client: "c2"), seen, "c2 of alice cares")
        XCTAssertGreaterThan(notifier.generation(for: "alice"), seen, "a download naming no client cares")

        // c1 waits; another c1 upload does not wake it, c2's does; and c1's own after c2's leaves c2's counted.
        let started = ContinuousClock.now
        async let c1Waits: Void = notifier.wait(past: seen, for: "alice", client: "c1", timeout: .seconds(10))
        try await Task.sleep(for: .milliseconds(100))
        notifier.announce(3, audience: ["alice"], origin: "c1")
        try await Task.sleep(for: .milliseconds(100))
        notifier.announce(4, audience: ["alice"], origin: "c2")
        await c1Waits
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5), "c2's upload woke c1")
        let afterC2 = notifier.generation(for: "alice", client: "c1")
        XCTAssertGreaterThan(afterC2, seen)
        notifier.announce(5, audience: ["alice"], origin: "c1")
        XCTAssertEqual(notifier.generation(for: "alice", client: "c1"), afterC2, "c2's announcement still counts")
        XCTAssertGreaterThan(notifier.generation(for: "alice", client: "c2"), afterC2, "c1's counts for c2")

        // An announcement of unknown origin (another server process's NOTIFY) or to everyone wakes c1 too.
        let before = notifier.generation(for: "alice", client: "c1")
        notifier.announce(6, audience: ["alice"])
        XCTAssertGreaterThan(notifier.generation(for: "alice", client: "c1"), before)
        let beforeEveryone = notifier.generation(for: "alice", client: "c1")
        notifier.announce(7, audience: nil, origin: "c1")
        XCTAssertGreaterThan(notifier.generation(for: "alice", client: "c1"), beforeEveryone)
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

import Foundation
import StrataStorage
import StrataTestSupport
import XCTest

@testable import Strata

/// Counting `badge.colour == %@` when `Wearer.badge`, a single link, is the embedded `Badge` table's only owner:
/// the count is the index's count of its entries (no owner looked up), and must equal a brute-force count of the
/// members through every change that creates, replaces, clears or deletes badges, in and out of write
/// transactions, while a table with several owning columns (`Homes`) keeps reading owners.
final class EmbeddedOwnerCountTests: EmbeddedTestCase {
    override class func makeConfiguration() -> Configuration { Configuration(schema: Badges.self) }

    private static let colours = ["red", "green", "blue", "gold"]

    /// Every count through the index against the members' own values.
    private func assertCountsMatch(_ context: String, line: UInt = #line) throws {
        let members = db.objects(Wearer.self)
        for colour in Self.colours + ["none"] {
            let expected = members.filter { $0.badge?.colour == colour }.count
            XCTAssertEqual(try members.filter("badge.colour == %@", colour).count, expected, "\(context) \(colour)", line: line)
        }
        for level in [0, 3, 7] {
            let expected = members.filter { ($0.badge?.level ?? -1) > level }.count
            XCTAssertEqual(try members.filter("badge.level > %@", level).count, expected, "\(context) > \(level)", line: line)
            let listed = try members.filter("badge.level > %@", level).map(\.id).count
            XCTAssertEqual(listed, expected, "\(context) listed > \(level)", line: line)
        }
    }

    func testTheOnlyOwnerIsRecognised() throws {
        let badges = try db.table(for: XCTUnwrap(db.schema.model(named: "Badge")))
        let wearers = try db.table(for: XCTUnwrap(db.schema.model(named: "Wearer")))
        let badge = try XCTUnwrap(wearers.column(named: "badge"))
        XCTAssertTrue(badges.isOwnedOnly(through: wearers.key, column: badge.key))
        XCTAssertFalse(wearers.isOwnedOnly(through: wearers.key, column: badge.key), "Wearer is not embedded")

        let homesDirectory = try TemporaryDirectory()
        let configuration = Configuration(schema: Homes.self)
            .scratch(at: homesDirectory.url.appendingPathComponent("homes.strata"))
        let homes = try Database(configuration: configuration)
        let addresses = try homes.table(for: XCTUnwrap(homes.schema.model(named: "Address")))
        let residents = try homes.table(for: XCTUnwrap(homes.schema.model(named: "Resident")))
        let home = try XCTUnwrap(residents.column(named: "home"))
        XCTAssertFalse(addresses.isOwnedOnly(through: residents.key, column: home.key), "Address has four owning columns")
    }

    func testCountsEqualABruteForceCountThroughEveryChange() throws {
        var state: UInt64 = 7
        func below(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func newBadge() -> Badge { Badge(colour: Self.colours[below(Self.colours.count)], level: below(10)) }
        try db.write {
            for id in 0..<1_500 { db.add(Wearer(id: id, badge: below(4) == 0 ? nil : newBadge())) }
        }
        try assertCountsMatch("after the inserts")
        for round in 0..<4 {
            try db.write {
                let members = Array(db.objects(Wearer.self))
                for _ in 0..<200 {
                    let member = members[below(members.count)]
                    guard !member.isInvalidated else { continue }
                    switch below(4) {
                    case 0: member.badge = newBadge()
                    case 1: member.badge = nil
                    case 2: member.badge?.colour = Self.colours[below(Self.colours.count)]
                    default: db.delete(member)
                    }
                }
                // Inside the write, after the changes.
                XCTAssertEqual(try db.objects(Wearer.self).filter("badge.colour == 'red'").count,
                               db.objects(Wearer.self).filter { $0.badge?.colour == "red" }.count, "round \(round) in the write")
            }
            try assertCountsMatch("round \(round)")
        }
        try db.write { db.delete(try db.objects(Wearer.self).filter("id < 700")) }
        try assertCountsMatch("after a batch delete")
        XCTAssertNoThrow(try db.verify())
    }
}

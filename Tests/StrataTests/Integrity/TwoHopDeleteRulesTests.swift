import Foundation
import StrataTestSupport
import XCTest

@testable import Strata

/// `deny` and `cascade` on a linkingObjects property declared through a list (`Folio.borrowers` over
/// `Borrower.vouchers` and `Voucher.folio`; docs/SCHEMA.md "Delete rules"): the reached objects are the borrowers
/// whose vouchers point at the object.
final class TwoHopDeleteRulesTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var db: Database!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let configuration = Configuration(schema: TwoHopLending.self)
            .scratch(at: directory.url.appendingPathComponent("lending.strata"))
        db = try Database(configuration: configuration)
    }

    override func tearDown() {
        db = nil
        directory = nil
    }

    func testDenyKeepsAFolioWhileABorrowerHoldsAVoucherForIt() throws {
        let folio = Folio(id: 1)
        let voucher = Voucher(id: 1)
        let borrower = Borrower(id: 1)
        try db.write {
            db.add([folio])
            voucher.folio = folio
            db.add([voucher])
            borrower.vouchers.append(voucher)
            db.add([borrower])
        }
        XCTAssertThrowsError(try db.write { db.delete(folio) }) { error in
            guard case StrataError.deleteDenied(let model, let property, let reached) = error else {
                return XCTFail("expected a denied delete, got \(error)")
            }
            XCTAssertEqual(model, "Folio")
            XCTAssertEqual(property, "borrowers")
            XCTAssertEqual(reached, 1)
        }
        XCTAssertEqual(db.objects(Folio.self).count, 1)
        XCTAssertEqual(db.objects(Voucher.self).first?.folio?.id, 1)

        // Deleting the borrower with it satisfies the rule; so does the borrower letting the voucher go.
        let other = Folio(id: 2)
        try db.write {
            db.add([other])
            voucher.folio = other
        }
        try db.write { borrower.vouchers.removeAll() }
        try db.write { db.delete(other) }
        XCTAssertEqual(db.objects(Folio.self).map(\.id), [1])
        try db.write { voucher.folio = db.objects(Folio.self).first }
        try db.write { borrower.vouchers.append(voucher) }
        try db.write { db.delete([db.objects(Folio.self).first!, borrower]) }
        XCTAssertEqual(db.objects(Folio.self).count, 0)
        XCTAssertEqual(db.objects(Borrower.self).count, 0)
    }

    func testCascadeDeletesTheBorrowersOfAScroll() throws {
        let scroll = Scroll(id: 1)
        let voucher = Voucher(id: 1)
        let reader = Borrower(id: 1)
        let bystander = Borrower(id: 2)
        try db.write {
            db.add([scroll])
            voucher.scroll = scroll
            db.add([voucher])
            reader.vouchers.append(voucher)
            db.add([reader, bystander])
        }
        try db.write { db.delete(scroll) }
        XCTAssertEqual(db.objects(Scroll.self).count, 0)
        XCTAssertEqual(db.objects(Borrower.self).map(\.id), [2])
        // The voucher is not reached by the rule: it stays, its link to the scroll nullified.
        XCTAssertEqual(db.objects(Voucher.self).count, 1)
        XCTAssertNil(db.objects(Voucher.self).first?.scroll)
    }
}

import Foundation
import StrataStorage
import XCTest

@testable import Strata

/// Files a migration must refuse, and `deleteIfMigrationNeeded`.
final class RefusalTests: MigrationTestCase {
    func testFileNewerThanTheCodeIsRefused() throws {
        let file = try OldVersionFile(path: path, version: 2)
        try file.record(version: 4, fingerprints: ["1": Shop.fingerprints[1]!, "2": Shop.fingerprints[2]!, "4": "feed"])
        try file.commit()
        try assertOpenFailsLeavingFileUnchanged(["version 4", "version 3", "newer code"])
    }

    func testEditedOldVersionIsRefusedNamingIt() throws {
        let file = try OldVersionFile(path: path, version: 1)
        try file.record(version: 1, fingerprints: ["1": "0123456789abcdef"])
        try file.commit()
        try assertOpenFailsLeavingFileUnchanged(["version 1 of Shop differs", "0123456789abcdef", "never be edited"])
    }

    /// With several edited versions the refusal names the one whose number sorts first, whatever order the record's
    /// dictionary gives them in (the check walks it unsorted).
    func testSeveralEditedVersionsAreRefusedNamingTheFirst() throws {
        let file = try OldVersionFile(path: path, version: 2)
        try file.record(version: 2, fingerprints: ["2": "2222222222222222", "1": "1111111111111111"])
        try file.commit()
        try assertOpenFailsLeavingFileUnchanged(["version 1 of Shop differs", "1111111111111111", "never be edited"])
    }

    func testReadOnlyOpenOfAnOldFileIsRefused() throws {
        try writeVersion1()
        try assertOpenFailsLeavingFileUnchanged(["version 1", "read-only"]) { $0.readOnly = true }
    }

    func testDeleteIfMigrationNeededStartsEmptyInsteadOfMigrating() throws {
        try writeVersion1()
        do {
            let database = try openMigrated { $0.deleteIfMigrationNeeded = true }
            XCTAssertEqual(database.objects(Patron.self).count, 0)
            XCTAssertEqual(database.objects(Product.self).count, 0)
        }
        XCTAssertEqual(try FileContents.recordedVersion(path: path), 3)
    }

    func testOtherSchemaIsRefused() throws {
        let file = try OldVersionFile(path: path, version: 1)
        try SchemaRecord(schema: "Zoo", version: 1, fingerprints: [:]).write(to: file.catalog)
        try file.commit()
        try assertOpenFailsLeavingFileUnchanged(["'Zoo'", "'Shop'"])
    }
}

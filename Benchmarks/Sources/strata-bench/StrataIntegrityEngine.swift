import Foundation
import Strata

/// `Registry` through Strata's public API: `Signup.email` is `unique: true`, `Parcel.pieces` is
/// `onDelete: cascade`; the parcels go with `deleteAll(Parcel.self)`.
final class StrataIntegrityEngine: IntegrityEngine {
    private let database: Database

    init(directory: URL) throws {
        var configuration = Configuration(schema: Registry.self)
        configuration.fileURL = directory.appendingPathComponent("registry.strata")
        configuration.durability = .batched
        database = try Database(configuration: configuration)
    }

    func insertSignups(count: Int) throws {
        try database.write {
            for index in 0..<count { database.add(Signup(id: index, email: IntegrityData.email(index))) }
        }
    }

    func insertParcels(parents: Int) throws {
        try database.write {
            for index in 0..<parents {
                database.add(Parcel(id: index, pieces: (0..<IntegrityData.piecesPerParcel).map { Piece(weight: $0) }))
            }
        }
    }

    func deleteParcels() throws {
        try database.write { database.deleteAll(Parcel.self) }
    }

    func counts() throws -> (signups: Int, parcels: Int, pieces: Int) {
        (database.objects(Signup.self).count, database.objects(Parcel.self).count, database.objects(Piece.self).count)
    }

    func close() throws {
        database.invalidate()
    }
}

import Foundation

/// One engine of `strata-bench integrity`: Strata with its schema rules, or SQLite with `UNIQUE` and
/// `ON DELETE CASCADE`.
protocol IntegrityEngine {
    /// Inserts sign-ups `0..<count` with the emails of ``IntegrityData/email(_:)``, in one transaction.
    func insertSignups(count: Int) throws
    /// Inserts parcels `0..<parents`, each with ``IntegrityData/piecesPerParcel`` pieces, in one transaction.
    func insertParcels(parents: Int) throws
    /// Deletes every parcel in one transaction; the rules delete their pieces.
    func deleteParcels() throws
    /// How many sign-ups, parcels and pieces there are.
    func counts() throws -> (signups: Int, parcels: Int, pieces: Int)
    /// Releases the engine.
    func close() throws
}

/// The data of `strata-bench integrity`.
enum IntegrityData {
    /// Pieces per parcel.
    static let piecesPerParcel = 10

    /// Sign-up `index`'s email: distinct for distinct indexes (a bijective 64-bit mix, in hex), and in an order
    /// unrelated to the index's, so that the unique index is written all over rather than at its end.
    static func email(_ index: Int) -> String {
        var z = UInt64(index) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return "user-" + String(z, radix: 16) + "@example.com"
    }
}

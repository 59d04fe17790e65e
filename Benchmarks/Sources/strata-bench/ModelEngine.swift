import Foundation

/// One engine holding the people of `CensusData` for `strata-bench model`: insert them all in one transaction,
/// then count people by nickname (`ANY nicknames == %@`) and by city (`home.city == %@`).
protocol ModelEngine {
    /// Inserts every person of `data`, with its address and nicknames, in one transaction.
    func insert(_ data: CensusData) throws
    /// The number of people with `nickname` among their nicknames.
    func countNickname(_ nickname: String) throws -> Int
    /// The number of people whose home is in `city`.
    func countCity(_ city: String) throws -> Int
    /// Closes the engine's files (SQLite folds its log into the main file first).
    func close() throws
}

import Foundation

/// One engine holding the people of `CensusData` for `strata-bench model`: insert them all in one transaction,
/// then count people by nickname (`ANY nicknames == %@`) and by city (`home.city == %@`).
protocol ModelEngine {
    func insert(_ data: CensusData) throws
    func countNickname(_ nickname: String) throws -> Int
    func countCity(_ city: String) throws -> Int
    func close() throws
}

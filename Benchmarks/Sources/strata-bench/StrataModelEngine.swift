import Foundation
import Strata

/// The `Census` people through Strata's public API: generated `Person` and embedded `Address`, `Results.count`.
final class StrataModelEngine: ModelEngine {
    private let database: Database

    init(directory: URL) throws {
        var configuration = Configuration(schema: Census.self)
        configuration.fileURL = directory.appendingPathComponent("census.strata")
        configuration.durability = .batched
        database = try Database(configuration: configuration)
    }

    func insert(_ data: CensusData) throws {
        try database.write {
            for i in 0..<data.count {
                database.add(
                    Person(
                        id: i, name: data.name(i), home: Address(street: data.street(i), city: data.city(i)),
                        nicknames: data.nicknames(i)))
            }
        }
    }

    func countNickname(_ nickname: String) throws -> Int {
        try database.objects(Person.self).filter("ANY nicknames == %@", nickname).count
    }

    func countCity(_ city: String) throws -> Int {
        try database.objects(Person.self).filter("home.city == %@", city).count
    }

    /// The number of people matching `predicate` with one argument (for `StrataModelSplits`).
    func count(_ predicate: String, _ argument: Any) throws -> Int {
        try database.objects(Person.self).filter(predicate, argument).count
    }

    func close() throws {
        database.invalidate()
    }
}

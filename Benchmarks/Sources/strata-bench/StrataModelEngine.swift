import Foundation
import Strata

/// The `Census` people through Strata's public API: generated people with an embedded address, `Results.count`.
/// Two models of the same data (`Variant`): the nicknames' set indexed (`Census.Person`), or not (`PlainPerson`).
final class StrataModelEngine: ModelEngine {
    /// Which schema holds the people.
    enum Variant {
        /// `Census`: the nicknames in an indexed set (docs/SCHEMA.md, "Indexed sets"), as SQLite's child table
        /// indexes the nickname's name.
        case indexedSet
        /// `CensusPlain`: the nicknames in a set without an index, as a Realm app declares them and as SQLite's
        /// JSON layout holds them; `ANY nicknames == %@` scans every person's set in place.
        case plainSet
    }

    private let database: Database
    private let variant: Variant

    init(directory: URL, variant: Variant = .indexedSet) throws {
        var configuration = switch variant {
        case .indexedSet: Configuration(schema: Census.self)
        case .plainSet: Configuration(schema: CensusPlain.self)
        }
        configuration.fileURL = directory.appendingPathComponent("census.strata")
        configuration.durability = .batched
        database = try Database(configuration: configuration)
        self.variant = variant
    }

    func insert(_ data: CensusData) throws {
        try database.write {
            switch variant {
            case .indexedSet:
                for i in 0..<data.count {
                    database.add(
                        Person(
                            id: i, name: data.name(i), home: Address(street: data.street(i), city: data.city(i)),
                            nicknames: data.nicknames(i)))
                }
            case .plainSet:
                for i in 0..<data.count {
                    database.add(
                        PlainPerson(
                            id: i, name: data.name(i),
                            home: PlainAddress(street: data.street(i), city: data.city(i)),
                            nicknames: data.nicknames(i)))
                }
            }
        }
    }

    func countNickname(_ nickname: String) throws -> Int {
        try count("ANY nicknames == %@", nickname)
    }

    func countCity(_ city: String) throws -> Int {
        try count("home.city == %@", city)
    }

    /// The number of people matching `predicate` with one argument (for `StrataModelSplits`).
    func count(_ predicate: String, _ argument: Any) throws -> Int {
        switch variant {
        case .indexedSet: try database.objects(Person.self).filter(predicate, argument).count
        case .plainSet: try database.objects(PlainPerson.self).filter(predicate, argument).count
        }
    }

    func close() throws {
        database.invalidate()
    }
}

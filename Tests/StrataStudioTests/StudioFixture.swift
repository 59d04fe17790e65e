import Foundation
import StrataStorage

/// A small database written through the storage layer alone (no app code, as the studio reads it): a town of
/// cities, people and pets, with a primary key, a unique property, links, a list of links, a list of strings,
/// and the delete rules `Person.pets: cascade` and `City.mayor: deny` in its schema record.
enum StudioFixture {
    /// The schema record the fixture stores (two versions, so the history has a migration).
    static let record = #"{"deleteRules":{"City.mayor":"deny","Person.pets":"cascade"},"#
        + #""fingerprints":{"1":"1111111111111111","2":"2222222222222222"},"schema":"Town","version":2}"#

    /// Writes the database at `path` (with `key` when given) and returns it closed.
    static func write(at path: String, key: [UInt8]? = nil, extraPeople: Int = 0) throws {
        var options = StoreOptions()
        options.encryptionKey = key
        options.durability = .none
        let store = try Store.open(path: path, options: options)
        defer { store.close() }
        let transaction = try store.beginWrite()
        let catalog = try Catalog(writer: transaction)
        let city = try catalog.createTable(named: "City")
        let cityName = try city.addColumn(named: "name", type: .value(.string))
        try city.setPrimaryKey(cityName)
        let pet = try catalog.createTable(named: "Pet")
        let petName = try pet.addColumn(named: "name", type: .value(.string))
        let person = try catalog.createTable(named: "Person")
        let id = try person.addColumn(named: "id", type: .value(.int))
        try person.setPrimaryKey(id)
        let name = try person.addColumn(named: "name", type: .value(.string))
        let age = try person.addColumn(named: "age", type: .value(.int))
        let email = try person.addColumn(named: "email", type: .value(.string), nullable: true)
        _ = try person.addIndex(on: [email], unique: true)
        let home = try person.addColumn(named: "home", type: .value(.link), nullable: true, target: city.key)
        let pets = try person.addColumn(named: "pets", type: .list(.link), target: pet.key)
        let tags = try person.addColumn(named: "tags", type: .list(.string))
        let mayor = try city.addColumn(named: "mayor", type: .value(.link), nullable: true, target: person.key)

        let oslo = try city.insert([(cityName, .string("Oslo"))])
        let bergen = try city.insert([(cityName, .string("Bergen"))])
        let rex = try pet.insert([(petName, .string("Rex"))])
        let tom = try pet.insert([(petName, .string("Tom"))])
        let people: [(Int64, String, Int64, String?, ObjectKey?, [ObjectKey], [String])] = [
            (1, "Ada", 36, "ada@example.org", oslo, [rex], ["math"]),
            (2, "Brian", 17, nil, bergen, [tom], []),
            (3, "Chloe", 52, "chloe@example.org", oslo, [], ["art", "ski"]),
        ]
        var keys: [ObjectKey] = []
        for (number, text, years, mail, place, animals, labels) in people {
            keys.append(try person.insert([
                (id, .int(number)), (name, .string(text)), (age, .int(years)),
                (email, mail.map { .string($0) } ?? .null),
                (home, place.map { .link($0) } ?? .null), (pets, .list(animals.map { .link($0) })),
                (tags, .list(labels.map { .string($0) })),
            ]))
        }
        for index in 0..<extraPeople {
            _ = try person.insert([
                (id, .int(Int64(100 + index))), (name, .string("Person \(index)")), (age, .int(Int64(index % 90))),
                (email, .null), (home, .link(index % 2 == 0 ? oslo : bergen)), (pets, .list([])), (tags, .list([])),
            ])
        }
        try city.set(oslo, column: mayor, to: .link(keys[2]))
        try catalog.setMetadata(Array(record.utf8), forKey: "strata.schema")
        try catalog.flush()
        try transaction.commit()
    }
}

import StrataTestSupport

/// The sources of the Contacts consumer package (`ContactsConsumerTests`): the schema language's whole example and
/// an app that uses every type it brings through the public API.
enum ContactsConsumerSources {
    /// docs/SCHEMA.md's whole example (decimals, ObjectIds, mixed values, sets, maps, embedded models, uniqueness,
    /// delete rules and full-text search), as version 1 of its own schema, read from the page itself.
    static func schema() throws -> String {
        try DocumentedExample.contactsSchema()
    }

    /// The app: writes every new type through unmanaged and managed objects and `create(_:value:)`, queries them
    /// (the contract's filter among them), and checks embedded ownership, uniqueness and delete rules. It prints
    /// `FAILED: …` and exits 1 at the first check that does not hold, and `contacts ok: …` at the end.
    static let main = #"""
        import Foundation
        import Strata

        /// Stops the app, saying why, when `condition` is false: the test reads the output.
        func expect(_ condition: Bool, _ message: String) {
            guard condition else {
                print("FAILED: \(message)")
                exit(1)
            }
        }

        /// Runs `write`, which must throw; returns the error's text.
        func failure(of write: () throws -> Void) -> String {
            do {
                try write()
            } catch {
                return "\(error)"
            }
            return "no error"
        }

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contacts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = Configuration(schema: Contacts.self)
        configuration.fileURL = folder.appendingPathComponent("contacts.strata")
        let db = try Database(configuration: configuration)
        let people = db.objects(Person.self)

        // Every new type through an unmanaged object, then the store.
        let ada = Person(firstName: "Ada", lastName: "L", home: Address(street: "1 Main", city: "Paris"))
        let engines = Company(name: "Engines")
        try db.write {
            db.add(ada)
            ada.nicknames.insert("ada")                             // MutableSet<String>
            ada.nicknames.formUnion(["countess", "ada"])
            ada.scores["math"] = 19                                 // Map<String, Int>
            ada.scores["art"] = 12
            ada.extras["born"] = .int(1815)                         // Map<String, AnyValue>
            ada.extras["pet"] = .string("none")
            ada.extras["nothing"] = AnyValue.none
            ada.favourite = .string("tea")                          // AnyValue
            ada.balance = Decimal(string: "10.25")!                 // Decimal
            ada.notes = "Swift data engines and looms"
            ada.pastHomes.append(Address(street: "2 Old Road", city: "London"))
            ada.pets.append(Pet(name: "Rex"))
            engines.staff.append(ada)
            db.add(engines)
        }
        expect(ada.id != ObjectId.zero && ada.id.stringValue.count == 24, "ada's id was generated: \(ada.id)")
        expect((try? ObjectId(string: ada.id.stringValue)) == ada.id, "an ObjectId reads back from its text")
        expect(engines.id != ada.id, "two generated ids differ")
        expect(Array(ada.nicknames).sorted() == ["ada", "countess"], "nicknames hold each name once: \(ada.nicknames)")
        expect(ada.scores.keys == ["art", "math"] && ada.scores["math"] == 19, "scores: \(ada.scores)")
        expect(ada.extras["born"] == .int(1815) && ada.extras["nothing"] == AnyValue.none && ada.extras["gone"] == nil,
               "extras: \(ada.extras)")
        expect(ada.favourite == .string("tea"), "favourite: \(ada.favourite)")
        expect(ada.balance == Decimal(string: "10.250")!, "balance: \(ada.balance)")
        expect(ada.home?.city == "Paris" && ada.pastHomes.map(\.city) == ["London"], "addresses are stored inside ada")
        expect(ada.employers.map(\.name) == ["Engines"], "linkingObjects through Company.staff: \(ada.employers.count)")

        // create(_:value:) from dictionaries: nested ones for embedded objects, arrays for sets, text for a decimal.
        let bo = try db.write {
            db.create(Person.self, value: [
                "firstName": "Bo", "lastName": "K", "home": ["street": "3 Side", "city": "Paris"],
                "pastHomes": [["street": "4 Quay", "city": "Lyon"]], "nicknames": ["bo", "b", "bo"],
            "scores": ["math": 12],
                "extras": ["pet": "cat", "age": 7], "favourite": 4.5, "balance": "3.50", "notes": "Kotlin data",
            ])
        }
        expect(bo.home?.city == "Paris" && bo.pastHomes.first?.city == "Lyon", "bo's addresses came from dictionaries")
        expect(bo.balance == Decimal(string: "3.5")! && bo.favourite == .double(4.5), "bo's balance and favourite")
        expect(bo.extras["age"] == .int(7) && bo.extras["pet"] == .string("cat"), "bo's extras: \(bo.extras)")
        expect(Array(bo.nicknames).sorted() == ["b", "bo"], "a set from an array drops repeats: \(bo.nicknames)")
        expect(ada.id < bo.id, "ObjectIds sort by creation")

        // Queries over embedded objects, sets, maps, mixed values, decimals, ObjectIds and full text.
        let found = try people.filter("home.city == %@ AND scores['math'] > 15 AND 'ada' IN nicknames", "Paris")
        expect(found.map(\.firstName) == ["Ada"], "the contract's filter finds Ada only: \(found.map(\.firstName))")
        expect(try people.filter("notes TEXT %@", "swift -kotlin data*").map(\.firstName) == ["Ada"], "TEXT query")
        expect(try people.filter("notes TEXT 'data'").count == 2, "TEXT finds every person with the word")
        expect(try people.filter("ANY pastHomes.city == 'Lyon'").map(\.firstName) == ["Bo"], "ANY through a list")
        expect(try people.filter("balance > 10.2").map(\.firstName) == ["Ada"], "decimal comparison by value")
        expect(try people.filter("favourite == 4.5 OR favourite == 'tea'").count == 2, "any compared with constants")
        expect(try people.filter("extras['born'] == 1815").count == 1, "map<any> key query")
        expect(try people.filter("ANY extras.@allValues == 'cat'").map(\.firstName) == ["Bo"], "map values query")
        expect(try people.filter("nicknames.@count == 2").count == 2, "@count over a set")
        expect(try people.filter("scores.@max >= 19").map(\.firstName) == ["Ada"], "@max over a map")
        expect(try people.filter("id == %@", bo.id).map(\.firstName) == ["Bo"], "ObjectId equality")
        expect(try people.where { $0.home.city == "Paris" && $0.balance > Decimal(5) }.map(\.firstName) == ["Ada"],
               "typed query through an embedded object and a decimal")
        expect(try people.where { $0.nicknames.any { $0.value == "b" } }.map(\.firstName) == ["Bo"], "typed set query")
        expect(people.sorted(byKeyPath: "balance").map(\.firstName) == ["Bo", "Ada"], "sort by decimal value")
        expect(db.object(ofType: Person.self, forPrimaryKey: ada.id)?.firstName == "Ada", "ObjectId primary key lookup")
        let total: Decimal = people.sum(ofProperty: "balance")
        expect(total == Decimal(string: "13.75")!, "the sum of decimals is exact: \(total)")

        // Embedded objects: replaced ones go, owned ones cannot be shared.
        try db.write { ada.home = Address(street: "5 New", city: "Rome") }
        expect(try people.filter("home.city == 'Paris'").map(\.firstName) == ["Bo"], "the Paris address was replaced")
        let byCity = people.sorted(byKeyPath: "home.city", ascending: false)
        expect(byCity.map(\.firstName) == ["Ada", "Bo"], "sort by an embedded key path")
        let shared = failure { try db.write { bo.home = ada.home } }
        expect(shared.contains("Address"), "assigning an owned address fails naming the model: \(shared)")
        expect(bo.home?.city == "Paris", "the failed write kept bo's address")

        // A mixed value linking to an object turns to none when the object is deleted.
        let tom = Pet(name: "Tom")
        try db.write { bo.favourite = .object(tom) }
        expect(tom.isManaged, "an object held in an any value is added with its holder")
        try db.write { db.delete(tom) }
        expect(bo.favourite == AnyValue.none, "deleting the object nils the mixed value: \(bo.favourite)")

        // Uniqueness rules.
        let twin = failure { try db.write { db.add(Person(firstName: "Ada", lastName: "L")) } }
        expect(twin.contains("firstName") && twin.contains("lastName"), "a second Ada L is refused: \(twin)")
        let rival = failure { try db.write { db.add(Company(name: "Engines")) } }
        expect(rival.contains("Company.name") && rival.contains("Engines"), "a second Engines is refused: \(rival)")

        // Delete rules: deny, then cascade.
        let denied = failure { try db.write { db.delete(engines) } }
        expect(denied.contains("Company.staff"), "a company with staff cannot be deleted: \(denied)")
        let rex = ada.pets[0]
        let listed = failure { try db.write { db.delete(rex) } }
        expect(listed.contains("Pet.owners"), "a pet someone lists cannot be deleted: \(listed)")
        try db.write {
            engines.staff.removeAll()
            db.delete(engines)
        }
        try db.write { db.delete(ada) }
        expect(db.objects(Pet.self).count == 0 && people.count == 1, "deleting ada deleted her pets")
        print("contacts ok: \(people.count) people, \(db.objects(Company.self).count) companies")
        try? FileManager.default.removeItem(at: folder)

        """#
}

/// Schema texts shared by several tests.
enum Examples {
    /// Version 3 of a Library history using most of docs/SCHEMA.md (`Book.borrowers` goes through a list).
    static let libraryV3 = """
        schema: Library          # required. Names the generated schema type. An upper-camel Swift identifier.
        version: 3               # required. A positive integer; versions of a schema strictly increase.
        access: public           # optional: public | internal (default). Access level of generated code.
        models:
          Person:
            doc: Someone who borrows books.     # optional; becomes the doc comment
            primaryKey: id                      # optional; int, string or uuid property
            properties:
              id: int                           # shorthand: just the type
              fullName: string
              age:
                type: int
                renamedFrom: yearsSinceBirth    # renamed since the previous version; data is kept
              email:
                type: string
                default: ""
                indexed: true
              birthdate: date?                  # `?` = optional
              avatar: data?
              tags: [string]                    # list of primitives
              loans: [Loan]                     # to-many link (ordered, keeps insertion order)
              favourite: Book?                  # to-one link (always optional)
              status:
                enum: [active, suspended]       # generates `Person.Status: String`
                default: active
              cache:
                type: data?
                transient: true                 # generated as a plain stored var, never persisted
            removed: [firstName, lastName]      # properties dropped since the previous version (explicit)
            migrate: custom                     # this version step needs app code for Person (see below)
          Book:
            primaryKey: isbn
            indexes: [[author, title]]          # optional compound indexes
            properties:
              isbn: string
              title: { type: string, indexed: true }
              author: string
              price: { type: double, default: 0 }
              borrowers: { linkingObjects: Person.loans }   # inverse of a link or list; read-only, kept by the store
          Loan:
            properties:
              id: { type: uuid, default: auto }          # `auto`: uuid -> random, int primary key -> next integer, date -> now
              since: { type: date, default: auto }
              book: Book?
        removedModels: [Shelf]                  # models dropped since the previous version (explicit)

        """

    /// A version 2 the example follows from: `firstName`, `lastName`, `yearsSinceBirth` and a `Shelf` model.
    static let libraryV2 = """
        schema: Library
        version: 2
        models:
          Person:
            primaryKey: id
            properties:
              id: int
              fullName: string
              firstName: string
              lastName: string
              yearsSinceBirth: int
              email: { type: string, default: "", indexed: true }
              birthdate: date?
              avatar: data?
              tags: [string]
              loans: [Loan]
              favourite: Book?
              status: { enum: [active, suspended], default: active }
          Book:
            primaryKey: isbn
            indexes: [[author, title]]
            properties:
              isbn: string
              title: { type: string, indexed: true }
              author: string
              price: { type: double, default: 0 }
              borrowers: { linkingObjects: Person.loans }
          Loan:
            properties:
              id: { type: uuid, default: auto }
              since: { type: date, default: auto }
              book: Book?
          Shelf:
            properties:
              name: string

        """

    /// A minimal valid version with one model, for tests that change one line.
    static func minimal(version: Int = 1, properties: String = "id: int", extra: String = "") -> String {
        """
        schema: Shop
        version: \(version)
        models:
          Item:
        \(extra.isEmpty ? "" : extra + "\n")    properties:
              \(properties)

        """
    }
}

extension Examples {
    /// A version of schema `Shop` whose `models:` mapping is `models` (already indented by two spaces).
    static func shop(_ version: Int, _ models: String, trailer: String = "") -> String {
        "schema: Shop\nversion: \(version)\nmodels:\n\(models)\n\(trailer.isEmpty ? "" : trailer + "\n")"
    }

    /// A model `Item` with the given property lines (each indented by six spaces) and extra model keys.
    static func item(_ properties: [String], extra: [String] = []) -> String {
        (["  Item:"] + extra.map { "    " + $0 } + ["    properties:"] + properties.map { "      " + $0 })
            .joined(separator: "\n")
    }
}

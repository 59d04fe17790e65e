import Foundation
import Strata

/// What the demo does with the database: fill it on the first run, lend and return books on later runs, and
/// print what is stored.
struct DemoLibrary {
    let db: Database

    /// Adds authors, books and members, relates them, updates and deletes some, printing each step.
    func fill() throws {
        try db.write {
            let leGuin = Author(name: "Ursula K. Le Guin", born: 1929, country: "USA")
            let lem = Author(name: "Stanisław Lem", born: 1921, country: "Poland")
            db.add([
                Book(isbn: "978-0-547-77374-0", title: "A Wizard of Earthsea", writer: leGuin, price: 9.99, copies: 3,
                     pages: 183),
                Book(isbn: "978-0-06-051275-4", title: "The Dispossessed", writer: leGuin, copies: 1, edition: 2),
                Book(isbn: "978-0-15-602760-6", title: "Solaris", writer: lem, price: 12.5, copies: 2, pages: 204),
                Book(isbn: "978-0-00-000000-0", title: "A Misprinted Catalogue Entry", copies: 1),
            ])
            print("Added 4 books by \(db.objects(Author.self).count) authors (author ids assigned: "
                + "\(db.objects(Author.self).map(\.id).sorted()))")

            db.add(Member(id: 1, fullName: "Ana Lima", age: 34, email: "ana@example.org", tags: ["sci-fi"]))
            db.create(Member.self, value: ["id": 2, "fullName": "Bo Chen", "age": 27, "email": "bo@example.org"])
            print("Added members Ana Lima and Bo Chen")
        }

        try db.write {
            let ana = member(1)
            ana.tags.append("night owl")
            ana.favourite = book("978-0-547-77374-0")
            db.create(Member.self, value: ["id": 2, "age": 28], update: .modified)
            print("Updated: Ana's tags \(Array(ana.tags)), favourite \"\(ana.favourite?.title ?? "-")\"; "
                + "Bo is now \(member(2).age)")

            lend(book("978-0-547-77374-0"), to: ana)
            lend(book("978-0-15-602760-6"), to: member(2))

            let misprint = book("978-0-00-000000-0")
            print("Deleted \"\(misprint.title)\"")
            db.delete(misprint)
        }
    }

    /// A later run: returns the oldest open loan and lends the next available book to Ana.
    func lendAndReturn() throws {
        try db.write {
            let open = db.objects(Loan.self).filter { !$0.returned }.sorted { $0.since < $1.since }
            if let oldest = open.first {
                oldest.returned = true
                oldest.book?.copies += 1
                print("Returned \"\(oldest.book?.title ?? "?")\"")
            }
            let ana = member(1)
            ana.visits += 1
            if let next = db.objects(Book.self).first(where: { $0.copies > 0 }) {
                lend(next, to: ana)
            }
        }
    }

    private func lend(_ book: Book, to member: Member) {
        let loan = Loan(due: Date().addingTimeInterval(14 * 24 * 3600), book: book, fee: 0.5)
        member.loans.append(loan)
        book.copies -= 1
        print("Lent \"\(book.title)\" to \(member.fullName) (\(book.copies) cop\(book.copies == 1 ? "y" : "ies") left)")
    }

    private func member(_ id: Int) -> Member {
        guard let member = db.object(ofType: Member.self, forPrimaryKey: id) else {
            preconditionFailure("the demo's member \(id) is missing")
        }
        return member
    }

    private func book(_ isbn: String) -> Book {
        guard let book = db.object(ofType: Book.self, forPrimaryKey: isbn) else {
            preconditionFailure("the demo's book \(isbn) is missing")
        }
        return book
    }

    /// Prints every book with its loans (through the store-kept inverse `Book.loans`) and every member.
    func printReport() {
        print("\nBooks:")
        for book in db.objects(Book.self).sorted(by: { $0.title < $1.title }) {
            let open = book.loans.filter { !$0.returned }.count
            print("  \(book.title) by \(book.writer?.name ?? "unknown"): \(book.copies) on the shelf, "
                + "\(book.loans.count) loan(s) so far, \(open) open, \(book.fans.count) fan(s)")
        }
        print("Members:")
        for member in db.objects(Member.self).sorted(by: { $0.id < $1.id }) {
            print("  #\(member.id) \(member.fullName), \(member.age), visits \(member.visits), "
                + "\(member.loans.count) loan(s), tags \(Array(member.tags))")
        }
    }
}

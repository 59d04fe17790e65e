/// The demo's custom migration step into version 3: `fullName` is built from version 2's first and last name.
struct LibraryMigrationsForDemo: LibraryMigrations {
    func migrateMember(from old: Library.V2.Member, to new: Member) throws {
        new.fullName = "\(old.firstName) \(old.lastName)"
    }
}

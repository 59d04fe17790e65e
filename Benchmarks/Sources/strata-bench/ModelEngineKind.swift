import ArgumentParser
import Foundation

/// The engines of `strata-bench model`, by command-line name: Strata's two models and SQLite's two layouts of the
/// same data.
enum ModelEngineKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Strata's public API: `Person` with an embedded `Address` and an indexed `set<string>`.
    case strata
    /// Strata's public API: `PlainPerson`, the same with a `set<string>` that is not indexed (Realm's model).
    case strataPlain = "strata-plain"
    /// SQLite with the address in columns and the nicknames in a child table with a foreign key.
    case sqliteTables = "sqlite-tables"
    /// SQLite with the address and the nicknames in JSON columns.
    case sqliteJSON = "sqlite-json"

    /// Opens the engine's files in `directory` (created empty by the caller).
    func open(in directory: URL) throws -> any ModelEngine {
        switch self {
        case .strata: try StrataModelEngine(directory: directory)
        case .strataPlain: try StrataModelEngine(directory: directory, variant: .plainSet)
        case .sqliteTables: try SQLiteModelEngine(directory: directory, layout: .tables)
        case .sqliteJSON: try SQLiteModelEngine(directory: directory, layout: .json)
        }
    }

    /// Name in the report.
    var displayName: String {
        switch self {
        case .strata: "Strata"
        case .strataPlain: "Strata, plain set"
        case .sqliteTables: "SQL tables"
        case .sqliteJSON: "SQL JSON"
        }
    }
}

import ArgumentParser
import Foundation

/// The engines a run compares, by command-line name.
enum EngineKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Strata through its public API (generated models, `Database`, `Results`).
    case strata
    /// Strata's storage engine driven directly: the floor under the public API.
    case strataStorage = "strata-storage"
    /// SQLite through its C API.
    case sqlite
    /// Strata through its public API on an encrypted file.
    case strataEncrypted = "strata-encrypted"

    /// Runs `body` with the engine's concrete type.
    func run<R>(_ body: (any BenchmarkEngine.Type) throws -> R) rethrows -> R {
        switch self {
        case .strata: return try body(StrataObjectEngine.self)
        case .strataStorage: return try body(StrataStorageEngine.self)
        case .sqlite: return try body(SQLiteEngine.self)
        case .strataEncrypted: return try body(StrataEncryptedEngine.self)
        }
    }

    /// Name in the report.
    var displayName: String { run { $0.name } }
}

@_exported import StrataSchema
import StrataStorage

// StrataSchema is the schema model (`SchemaVersion`, `ModelDefinition`, `MigrationPlan`, ...): `Schema` names
// its types and generated code writes literals of them, so `import Strata` alone is enough for both. It has no
// dependencies; the YAML loader, validation and version diffs are in StrataSchemaCompiler, which apps never link.

/// A 12-byte object identifier (seconds, random bytes, counter) for `objectId` properties. See
/// `StrataStorage.ObjectId`.
public typealias ObjectId = StrataStorage.ObjectId

/// Every failure Strata reports. See `StrataStorage.StrataError`.
public typealias StrataError = StrataStorage.StrataError

/// How hard a commit tries to reach the disk: `.full`, `.batched` or `.none`. See `StrataStorage.Durability`.
public typealias Durability = StrataStorage.Durability

/// What a database file holds right now (size, used, free and waiting bytes, pinned versions): see
/// ``Database/fileStatus``.
public typealias FileStatus = StrataStorage.StoreStatus

/// What opening a database found when its newest commit was not whole (the version opened, the version passed
/// over, whether that one had been committed): ``FileStatus``'s `openRecovery`. See `StrataStorage.OpenRecovery`.
public typealias OpenRecovery = StrataStorage.OpenRecovery

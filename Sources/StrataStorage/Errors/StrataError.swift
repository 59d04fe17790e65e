/// Every failure Strata reports: a case per kind, each carrying what it concerns (the file, the page, the
/// object type, the property, the version) and a message that says what to do next.
public enum StrataError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call on the file failed. `operation` is what Strata was doing (`"write"`, `"fsync"`, …).
    case io(operation: String, path: String, errno: Int32, message: String)
    /// The disk (or the file system's quota) is full; nothing was committed.
    case diskFull(path: String)
    /// The file is not a Strata database (its magic bytes are wrong or it is too short to hold a header).
    case notADatabase(path: String)
    /// The file was written by a newer format version than this code understands.
    case unsupportedFormat(path: String, version: Int, supported: Int)
    /// The file is damaged: a checksum does not match, a reference points outside the file, a structure is
    /// inconsistent. `location` says where (a page, a meta slot, a table).
    case corruptFile(path: String, location: String, detail: String)
    /// The newest commit in the file is damaged although it had been acknowledged (its sync had returned and the
    /// lock file recorded it as durable): opening would silently go back to `openableVersion` and lose
    /// `lostVersion`'s data. Restore the file from a backup, or open it with `StoreOptions.acceptsLostCommits`
    /// (`Configuration.acceptsLostCommits`) to accept the loss and continue from `openableVersion`. `detail` says
    /// what was found damaged. See docs/ARCHITECTURE.md, "An acknowledged commit is never lost silently".
    case lostCommit(path: String, lostVersion: UInt64, openableVersion: UInt64, detail: String)
    /// The encryption key does not fit the file: the file is encrypted and no key or another key was given, or
    /// a key was given for a file that is not encrypted. `detail` says which.
    case wrongEncryptionKey(path: String, detail: String)
    /// A previous `fsync` failed, so what the disk holds is unknown: the database refuses writes until reopened.
    case writesRefusedAfterFailedSync(path: String)
    /// The database was opened read-only.
    case readOnly(path: String)
    /// A call that needs a write transaction was made outside one, or a write was begun inside one.
    case transactionMisuse(String)
    /// An object with this primary key already exists.
    case duplicatePrimaryKey(type: String, key: String)
    /// An argument does not fit what the call expects.
    case invalidArgument(String)
    /// A query predicate is malformed, names an unknown property or gets an argument of the wrong type.
    /// `offset` is the UTF-8 offset of the offending token in `predicate`.
    case invalidPredicate(predicate: String, offset: Int, message: String)
    /// The file's recorded schema does not match the code's: a different schema, an old version edited after
    /// release, or tables that do not have the columns the schema describes.
    case schemaMismatch(path: String, detail: String)
    /// The file holds an older version of the schema and this open may not migrate it (read-only, or the file
    /// is newer than the code).
    case migrationNeeded(path: String, fileVersion: Int, schemaVersion: Int, detail: String)
    /// An object was used after it was deleted, or a database after it was closed or invalidated.
    case invalidated(String)
    /// Migrating the file from one schema version to the next failed (duplicate new primary keys, a value that
    /// cannot be converted, the app's migration code threw); the file was left exactly as it was.
    case migrationFailed(path: String, fromVersion: Int, toVersion: Int, detail: String)
    /// A write would give two objects of `type` equal values in properties kept unique (`unique: true` or
    /// `unique: [[a, b]]`): `value` is the value (the values, in the order of `properties`) and `holder` the key of
    /// the object that already holds it. Nothing was changed.
    case uniquenessViolation(type: String, properties: [String], value: String, holder: Int64)
    /// A delete was refused: property `property` of model `type` has `onDelete: deny` and reaches `count` objects
    /// that the same delete does not delete. Nothing was deleted.
    case deleteDenied(type: String, property: String, count: Int)

    /// The file name the table layer gives in its errors. It reads nodes through `NodeReader` and does not know
    /// which file they come from; `inFile(_:)` puts the real path in where the file is known.
    static let unnamedFile = "database"

    /// This error, naming `path` as the file if it named none (a damaged structure the table layer found).
    package func inFile(_ path: String) -> StrataError {
        guard case .corruptFile(Self.unnamedFile, let location, let detail) = self else { return self }
        return .corruptFile(path: path, location: location, detail: detail)
    }

    /// What went wrong and where, in one sentence a user can act on.
    public var description: String {
        switch self {
        case let .io(operation, path, errno, message):
            return "\(operation) failed on '\(path)': \(message) (errno \(errno))"
        case let .diskFull(path):
            return "the disk is full while writing '\(path)'; nothing was committed. Free some space and try again."
        case let .notADatabase(path):
            return "'\(path)' is not a Strata database"
        case let .unsupportedFormat(path, version, supported):
            return "'\(path)' uses file format \(version), newer than this version of Strata reads (\(supported)); "
                + "update Strata to open it"
        case let .corruptFile(path, location, detail):
            return "'\(path)' is damaged at \(location): \(detail)"
        case let .lostCommit(path, lostVersion, openableVersion, detail):
            return "'\(path)' lost version \(lostVersion), which had been committed: \(detail). Opening it would go "
                + "back to version \(openableVersion) and drop every change made after it. Restore the file from a "
                + "backup, or open it with acceptsLostCommits to accept the loss and continue from version \(openableVersion)"
        case let .wrongEncryptionKey(path, detail):
            return "cannot open '\(path)' with this encryption key: \(detail)"
        case let .writesRefusedAfterFailedSync(path):
            return "a previous sync of '\(path)' failed, so the disk's content is unknown; "
                + "writes are refused until the database is reopened"
        case let .readOnly(path):
            return "'\(path)' was opened read-only; open it without `readOnly` to write"
        case let .transactionMisuse(message):
            return message
        case let .duplicatePrimaryKey(type, key):
            return "an object of type '\(type)' with primary key \(key) already exists"
        case let .invalidArgument(message):
            return message
        case let .schemaMismatch(path, detail):
            return "the schema recorded in '\(path)' does not match the code's: \(detail)"
        case let .migrationNeeded(path, fileVersion, schemaVersion, detail):
            return "'\(path)' holds version \(fileVersion) of its schema and the code has version \(schemaVersion): \(detail)"
        case let .invalidated(message):
            return message
        case let .migrationFailed(path, fromVersion, toVersion, detail):
            return "migrating '\(path)' from version \(fromVersion) to \(toVersion) failed, so the file was left at "
                + "version \(fromVersion), unchanged: \(detail)"
        case let .uniquenessViolation(type, properties, value, holder):
            let names = properties.map { "\(type).\($0)" }.joined(separator: " + ")
            let what = properties.count == 1 ? "is unique" : "are unique together"
            return "\(names) \(what), and object \(holder) of type '\(type)' already holds \(value); "
                + "nothing was changed"
        case let .deleteDenied(type, property, count):
            return "the delete is denied by \(type).\(property) (onDelete: deny), which reaches \(count) object(s) "
                + "the delete keeps; delete or unlink them first. Nothing was deleted"
        case let .invalidPredicate(predicate, offset, message):
            return "invalid predicate at offset \(offset): \(message)\n  \(predicate)\n  "
                + String(repeating: " ", count: predicate.utf8.prefix(offset).count { $0 & 0xC0 != 0x80 }) + "^"
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// Where and how a database opens: its schema, its file (or in-memory name), and the app's migration code for a
/// schema with `migrate: custom` steps.
///
/// ```swift
/// var config = Configuration(schema: Library.self)                              // no custom steps
/// var config = Configuration(schema: Library.self, migrations: MyMigrations())   // with custom steps
/// config.fileURL = directory.appendingPathComponent("app.strata")
/// Configuration.defaultConfiguration = config
/// ```
///
/// A schema with custom steps has no `Configuration(schema:)`: the generated code only offers the initializer
/// that takes the migrations, so a missing migration does not compile.
public struct Configuration: Sendable {
    /// The generated schema the database holds.
    public let schema: any Schema.Type
    /// The app's code for the schema's `migrate: custom` steps (none for a schema without them).
    public let customMigrations: CustomMigrations

    /// The database file. Defaults to `default.strata` in the platform's application-support directory: on
    /// Linux `$XDG_DATA_HOME/<executable>/` or `~/.local/share/<executable>/`; on macOS
    /// `~/Library/Application Support/<executable>/`. Ignored when ``inMemoryIdentifier`` is set.
    public var fileURL: URL {
        get { explicitFileURL ?? Configuration.defaultFileURL }
        set { explicitFileURL = newValue }
    }
    /// The file set by the app, if any. The default is worked out only when asked for: it reads the environment
    /// and builds URLs, which would otherwise add to every open (including the many that set their own file).
    private var explicitFileURL: URL?

    /// When set, the database lives in memory only, shared by every `Database` opened with the same identifier
    /// in this process, and disappears when the last one closes.
    public var inMemoryIdentifier: String?

    /// The 64-byte key that encrypts the file (the first 32 bytes are an AES-256 key, the last 32 an HMAC-SHA256
    /// key, as in Realm), or `nil` for a file in clear. A new file is created encrypted when a key is set; an
    /// existing file opens only with the key it was created with, otherwise `Database` throws
    /// `StrataError.wrongEncryptionKey` (a damaged or tampered node is `StrataError.corruptFile`, never wrong
    /// data). Generate the key randomly and keep it in the platform's keychain or secret store, not in the app or
    /// next to the file. To add, change or remove encryption, use ``Database/writeCopy(to:encryptionKey:)``.
    public var encryptionKey: Data?

    /// Opens the file read-only: every write is refused, and a file that needs a migration is an error.
    ///
    /// A read-only database also opens where no lock file can be made beside it (a folder or file system this
    /// process may not write, such as a database shipped with the app). It then cannot see other processes, so
    /// nothing may write the file while it is open.
    public var readOnly = false

    /// The permission bits of the files the database creates (the file, its lock file, copies written with
    /// ``Database/writeCopy(to:)``), before the process's umask clears some. The default `0o644` with the usual
    /// umask `022` lets every user of the machine read the file; use `0o600` to keep it to the app's user (or
    /// `0o660` for a group). An existing file keeps its permissions. Every process that opens the database must be
    /// able to read and write its lock file.
    public var filePermissions: UInt16 = 0o644

    /// The model classes this database uses: a subset of the schema's (default: all of them). A model in the set
    /// that links to a model outside it is an error at open.
    public var objectTypes: [ObjectBase.Type]?

    /// When the file's schema version differs from the code's, delete the file and start empty instead of
    /// migrating (for development, as in Realm). While another process has the file open, the open fails with
    /// `StrataError.io` (`EBUSY`) instead: see ``Database/deleteFiles(for:)``.
    public var deleteIfMigrationNeeded = false

    /// Open the file at its previous version when its newest commit is damaged although it had been committed
    /// (a flipped byte or a zeroed page found after the commit returned), accepting that the changes of that
    /// commit are lost. Off by default: such a file then fails to open with `StrataError.lostCommit`, which names
    /// both versions, so that the app can restore a backup instead; turn it on to keep going (as Realm's or Core
    /// Data's recovery paths do: keep the data that is intact, report the rest). ``Database/fileStatus``'s
    /// `openRecovery` then names the version opened and the one lost. A commit that never completed (the app
    /// crashed or the power failed during it) is passed over either way, and `openRecovery` says so too.
    public var acceptsLostCommits = false

    /// How hard each commit tries to reach the disk: `.full` (default; a crash or power loss loses nothing that
    /// was committed), `.batched` (commits are atomic and synced together every 100 ms: a power loss may lose
    /// the last ones), `.none` (tests and bulk loads).
    public var durability: Durability = .full

    /// Asked when the file is opened by the first process to open it, with the file's size and the bytes its
    /// data uses: return `true` to compact the file first (rewrite it with only live data) , as Realm's
    /// `shouldCompactOnLaunch` does. It is not asked when another `Database` of this process or another process
    /// has the file open (compaction moves every object, so it must be alone), nor for read-only or in-memory
    /// configurations. A compaction that cannot finish (a full disk: the copy needs room) leaves the file as it
    /// was, and the database opens uncompacted. Example:
    /// `{ totalBytes, usedBytes in totalBytes > 100 << 20 && usedBytes * 2 < totalBytes }`.
    public var shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?

    /// Called while a migration runs, with how many objects it has processed out of how many (roughly every
    /// thousand objects, and at the start of each version step and the end). It runs on the opening thread,
    /// inside the migration's write transaction: keep it quick (update a progress bar, print a line).
    public var migrationProgress: (@Sendable (MigrationProgress) -> Void)?

    /// The untyped, Realm-style migration code: called once per version step k→k+1 with a ``Migration`` (its
    /// `oldSchemaVersion` and `newSchemaVersion` say which step), after the step's automatic changes and the
    /// generated custom steps. Prefer the typed custom steps (`migrate: custom`), which the compiler checks.
    public var migrationBlock: (@Sendable (Migration) throws -> Void)?

    /// Syncs the database through a sync server (docs/SYNC.md, "The client"); `nil` (the default) keeps it local.
    /// Every write then records its changes in the file's outbox, and ``Database/syncSession`` uploads them and
    /// applies other devices' changes. Ignored for read-only and in-memory configurations.
    public var sync: SyncConfiguration?

    /// A configuration for a schema that has no `migrate: custom` step.
    ///
    /// - Parameter schema: The generated schema type, for example `Library.self`.
    public init<S: SchemaWithoutCustomMigrations>(schema: S.Type) {
        self.schema = schema
        customMigrations = .none
    }

    /// A configuration for a schema with custom steps: generated `Configuration(schema:migrations:)` overloads
    /// call this after turning the app's typed migrations into ``CustomMigrations``.
    @_spi(StrataGenerated) public init(schema: any Schema.Type, customMigrations: CustomMigrations) {
        self.schema = schema
        self.customMigrations = customMigrations
    }
}

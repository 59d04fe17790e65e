/// What opening a store found when the newest commit in its file was not whole: the version it opened instead,
/// the version it passed over, and whether that version had been acknowledged.
///
/// A commit that never completed (a crash or power loss before its sync returned) is expected to be passed over:
/// the app was never told it was committed. A commit whose sync had returned, found damaged later (a flipped
/// byte, a zeroed page), is a lost commit: the store refuses to open past it (`StrataError.lostCommit`) unless
/// it was opened with `StoreOptions.acceptsLostCommits`. Either way the open reports it here, through
/// `StoreStatus.openRecovery` (`Database.fileStatus`), `VerifyReport.openRecovery` and `strata info` / `strata
/// verify`. See docs/ARCHITECTURE.md, "An acknowledged commit is never lost silently".
public struct OpenRecovery: Sendable, Hashable, CustomStringConvertible {
    /// The version the store opened at: the newest one whose pages are all intact.
    public var openedVersion: UInt64
    /// The newer version the file names but that is not whole, or `nil` when the meta slot that named it is
    /// itself damaged (its version is then unknown).
    public var rejectedVersion: UInt64?
    /// The newest version the lock file recorded as acknowledged (durable, its commit returned to the app) when
    /// the store was last open, or `nil` when there was no such record (no lock file, or one the last session
    /// left before it recorded anything).
    public var acknowledgedVersion: UInt64?
    /// Why the newer version was rejected (which slot, node or page failed its check).
    public var reason: String

    /// Whether the version passed over had been acknowledged: committed data was lost. Opening then fails with
    /// `StrataError.lostCommit`, unless the app opted in with `StoreOptions.acceptsLostCommits`.
    public var lostAcknowledgedCommit: Bool {
        guard let acknowledgedVersion else { return false }
        return acknowledgedVersion > openedVersion
    }

    /// Creates a report (the store makes them; public for tests and tools that format them).
    public init(openedVersion: UInt64, rejectedVersion: UInt64?, acknowledgedVersion: UInt64?, reason: String) {
        self.openedVersion = openedVersion
        self.rejectedVersion = rejectedVersion
        self.acknowledgedVersion = acknowledgedVersion
        self.reason = reason
    }

    /// One sentence for logs and `strata info`: which version opened, which was passed over, and why.
    public var description: String {
        let rejected = rejectedVersion.map { "instead of version \($0)" }
            ?? "(the other meta slot is damaged: a newer version may have been passed over)"
        let kind = lostAcknowledgedCommit
            ? "an acknowledged commit was lost (the lock file recorded version \(acknowledgedVersion ?? 0) as "
                + "committed)"
            : "nothing recorded it as acknowledged, as after a crash or power loss during a commit"
        return "opened at version \(openedVersion) \(rejected): \(kind); \(reason)"
    }
}

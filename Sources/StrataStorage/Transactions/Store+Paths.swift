/// The names of the files a store keeps beside its data file.
extension Store {
    /// The lock file of the store at `path`.
    static func lockPath(for path: String) -> String { path + ".lock" }

    /// The temporary name a new file is written under, synced, before it is renamed to `path`.
    static func creatingPath(for path: String) -> String { path + ".creating" }

    /// The name the compacted copy is written under before it replaces the file at `path`.
    static func compactionPath(for path: String) -> String { path + ".compacting" }

    /// What a compaction of the file at `path` that was killed before its rename leaves: the copy, its lock file
    /// and, if it was killed while creating the copy, the copy's first page under its temporary name.
    static func compactionLeftovers(for path: String) -> [String] {
        let copy = compactionPath(for: path)
        return [copy, lockPath(for: copy), creatingPath(for: copy)]
    }

    /// Every file the store at `path` may have beside the file itself: its lock file, and what an interrupted
    /// creation or compaction leaves (the next process to open the store first removes the compaction's). For
    /// deleting a store whole.
    public static func companionPaths(of path: String) -> [String] {
        [lockPath(for: path), creatingPath(for: path)] + compactionLeftovers(for: path)
    }
}

extension LockFile {
    /// The low 32 bits of the current version in the shared meta copy (bytes 72-75): the word commit waiters sleep
    /// on. Every commit changes it (versions grow by one), and a writer wakes its sleepers right after publishing.
    var versionWord: UnsafeMutableRawPointer { handle.memory + 72 }
}

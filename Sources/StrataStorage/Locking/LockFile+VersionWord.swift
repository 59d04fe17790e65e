extension LockFile {
    /// The low 32 bits of the publication word (bytes 16-19, the current version): the word commit waiters sleep
    /// on. Every commit changes it (versions grow by one), and a writer wakes its sleepers right after publishing.
    var versionWord: UnsafeMutableRawPointer { handle.memory + 16 }
}

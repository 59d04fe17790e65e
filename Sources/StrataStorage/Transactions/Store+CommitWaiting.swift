extension Store {
    /// Blocks until a version newer than `version` is committed, by this process or another one with the file
    /// open, or until `timeout` seconds pass; returns the newest committed version (not above `version` after a
    /// timeout).
    ///
    /// A commit in this process wakes waiters at once; on Linux a commit in another process does too (a shared
    /// futex on the lock file's version word), elsewhere it is seen within a few milliseconds (`CommitSignal`).
    /// Closing the store wakes every waiter, which then returns the newest version it saw (`version` when the
    /// store was already closed). Safe from any thread, with read transactions open; while this thread holds the
    /// write transaction no other writer can commit, so only the timeout or a close ends the wait.
    package func waitForCommit(after version: UInt64, timeout: Double) -> UInt64 {
        let deadline = Store.monotonicSeconds() + max(0, timeout)
        commitSignal.enter()
        defer { commitSignal.leave() }
        // Counted as a use of the files, so closing the store does not unmap the lock file under a waiter.
        let entered = stateLock.withLock { () -> Bool in
            guard !isClosed else { return false }
            openTransactions += 1
            return true
        }
        guard entered else { return version }
        defer { stateLock.withLock { leaveTransaction() } }
        let word = lockFile.versionWord
        while true {
            // The word is read before the version: a commit in between changes the word, so the sleep below
            // returns at once instead of missing it.
            let expected = word.load(as: UInt32.self)
            let current = lockFile.latestVersion
            if current > version { return current }
            let remaining = deadline - Store.monotonicSeconds()
            if remaining <= 0 || stateLock.withLock({ isClosed }) { return current }
            commitSignal.wait(on: word, expected: expected, seconds: remaining)
        }
    }
}

import StrataStorage

extension Database {
    /// The first pause between two tries for the writer lock, in nanoseconds.
    static let asyncWriteFirstPause: UInt64 = 50_000
    /// The longest pause between two tries, in nanoseconds: a writer in another process is noticed at most this
    /// late after it lets go.
    static let asyncWriteLongestPause: UInt64 = 2_000_000

    /// Runs `block` in a write transaction and commits it, waiting for the writer lock without blocking a thread:
    /// while another thread or process writes, the calling task is suspended (`Task.sleep`, with pauses growing
    /// from 50 µs to 2 ms between tries), so the cooperative pool goes on running other tasks.
    ///
    /// `block` runs in the caller's isolation, where the database lives: the actor it is confined to, the main
    /// actor, or the task that opened it. Like ``write(_:)``, a `block` that throws (or an operation in it that
    /// failed) cancels the transaction and keeps nothing.
    ///
    /// ```swift
    /// let id = try await db.asyncWrite {
    ///     let note = Note(text: "from a task")
    ///     db.add(note)
    ///     return note.id
    /// }
    /// ```
    ///
    /// A task cancelled before `block` runs throws `CancellationError` and writes nothing; once `block` runs, the
    /// write goes on to its commit. A database confined to a serial queue cannot be reached from async code: use
    /// ``write(_:)`` on its queue.
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor (the default): the block runs there, without hopping.
    ///   - block: The changes; what it returns is returned.
    /// - Returns: What `block` returns.
    /// - Throws: `CancellationError` when the task was cancelled before `block` ran; otherwise what ``write(_:)``
    ///   throws.
    @discardableResult
    public func asyncWrite<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ block: () throws -> Result
    ) async throws -> Result {
        var pause = Self.asyncWriteFirstPause
        var firstTry = true
        while true {
            try Task.checkCancellation()
            // Another use of this database, in the same isolation, may have begun a write while this one slept:
            // wait for it to end like for any other writer (it holds the lock). On the first try, it is a nesting.
            if firstTry || writeTransaction == nil {
                if try store.namingFile({ try startWrite("asyncWrite(_:)", waiting: false) }) { break }
            }
            firstTry = false
            try await Task.sleep(nanoseconds: pause)
            pause = min(pause * 2, Self.asyncWriteLongestPause)
        }
        return try store.namingFile { try runBegunWrite(block) }
    }
}

import Foundation
import StrataStorage
internal import StrataSyncWire

/// Syncs one database file with a sync server (docs/SYNC.md, "The client"): uploads the outbox in order, downloads
/// other devices' changes with long polls and applies them, one write transaction per page, so that observers are
/// notified as for any commit. Retries with backoff after failures.
///
/// Every ``Database`` of one file in a process shares one session (``Database/syncSession``). Its methods may be
/// called from any thread.
///
/// ```swift
/// try db.write { db.add(Note(id: "n1", ownerId: "alice", title: "Groceries")) }
/// try await db.syncSession?.waitForUpload()     // the server has it
/// try await db.syncSession?.waitForDownload()   // everything the server had is applied here
/// ```
public final class SyncSession: @unchecked Sendable {
    /// What the session is doing.
    public enum State: Sendable, Equatable {
        /// Uploading and downloading whenever there is something to do.
        case active
        /// Stopped by ``SyncSession/pause()`` (or `startsImmediately = false`): local writes are recorded, nothing
        /// is sent or applied until ``SyncSession/resume()``.
        case paused
        /// The server refused the token (401): nothing is sent until ``SyncSession/updateToken(_:)``.
        case needsToken
    }

    /// How far the session has come.
    public struct Progress: Sendable, Equatable {
        /// Local changes recorded and not yet acknowledged by the server.
        public var pendingUploads: Int
        /// The highest change number the server acknowledged.
        public var acknowledgedChange: Int64
        /// The server's change log position applied here (the download cursor).
        public var downloadedThrough: Int64
    }

    /// The file's path.
    public let path: String
    private let configuration: SyncConfiguration
    private let transport: SyncTransport
    /// The queue the session's own database is confined to: every read and write of the file runs there.
    private let queue: DispatchQueue
    private let database: Database
    private let lock = NSLock()
    private var currentState: State
    private var currentProgress = Progress(pendingUploads: 0, acknowledgedChange: 0, downloadedThrough: 0)
    private var currentError: SyncError?
    private var token: String
    private let uploadSignal = SyncSignal()
    private let stateSignal = SyncSignal()
    private var loops: [Task<Void, Never>] = []
    /// Whether the server's last upload answer said it keeps order (``UploadResponse/keepsOrder``): only then are
    /// batches sent ahead of the previous one's answer.
    private var serverKeepsOrder = false

    /// What the session is doing now.
    public var state: State { lock.withLock { currentState } }
    /// How far it has come, read from the file now (so local commits just made count).
    public var progress: Progress {
        let read = try? queue.sync { () throws -> Progress in
            _ = database.refresh()
            return try readProgress()
        }
        if let read { lock.withLock { currentProgress = read } }
        return lock.withLock { currentProgress }
    }
    /// The latest failure (kept until an upload or download succeeds).
    public var lastError: SyncError? { lock.withLock { currentError } }

    private init(path: String, configuration: Configuration, sync: SyncConfiguration) throws {
        self.path = path
        self.configuration = sync
        self.token = sync.token
        transport = SyncTransport(server: sync.server, requestTimeout: sync.requestTimeout)
        let queue = DispatchQueue(label: "strata.sync \(path)")
        self.queue = queue
        var local = configuration
        local.sync = nil
        local.shouldCompactOnLaunch = nil
        database = try queue.sync { try Database(configuration: local, queue: queue) }
        currentState = sync.startsImmediately ? .active : .paused
        let snapshot = try queue.sync { try readProgress() }
        currentProgress = snapshot
    }

    deinit {
        for loop in loops { loop.cancel() }
    }

    // MARK: Sharing

    private final class WeakSession: @unchecked Sendable {
        weak var session: SyncSession?
        init(_ session: SyncSession) { self.session = session }
    }

    nonisolated(unsafe) private static var sessions: [String: WeakSession] = [:]
    private static let sessionsLock = NSLock()

    /// The session of `path`'s file, started on first use.
    static func shared(path: String, configuration: Configuration, sync: SyncConfiguration) throws -> SyncSession {
        try sessionsLock.withLock {
            if let existing = sessions[path]?.session { return existing }
            let session = try SyncSession(path: path, configuration: configuration, sync: sync)
            sessions[path] = WeakSession(session)
            session.start()
            return session
        }
    }

    private func start() {
        // The loops hold the session weakly, so that it ends when the app's databases let it go.
        let box = WeakSession(self)
        loops = [
            Task.detached { await SyncSession.uploadLoop(box) },
            Task.detached { await SyncSession.downloadLoop(box) },
        ]
    }

    // MARK: Control

    /// Stops sending and applying; local writes keep being recorded.
    public func pause() { setState(.paused) }

    /// Starts again after ``pause()``, or after a token refusal with the same token.
    public func resume() { setState(.active) }

    /// Replaces the token (after ``State/needsToken``) and resumes.
    public func updateToken(_ token: String) {
        lock.withLock { self.token = token }
        setState(.active)
    }

    private func setState(_ state: State) {
        lock.withLock { currentState = state }
        stateSignal.fire()
        uploadSignal.fire()
    }

    /// Called by the app's database after a commit that recorded changes.
    func localChangesCommitted() {
        SyncTrace.note(path, "committed")
        uploadSignal.fire()
    }

    // MARK: Waiting

    /// Returns once every change committed before the call is acknowledged by the server, uploading now.
    /// - Throws: ``SyncError`` when the session is paused or the server cannot be reached or refuses.
    public func waitForUpload() async throws {
        try requireActive()
        while try await uploadBatch() {}
    }

    /// Returns once every change the server had when the call began is applied here, downloading now.
    /// - Throws: ``SyncError`` when the session is paused or the server cannot be reached or refuses.
    public func waitForDownload() async throws {
        try requireActive()
        while try await downloadPage(wait: 0) {}
    }

    private func requireActive() throws {
        switch state {
        case .active: return
        case .paused: throw SyncError(status: nil, message: "the session is paused; call resume() first")
        case .needsToken:
            throw lastError ?? SyncError(status: 401, message: "the server refused the token; call updateToken(_:)")
        }
    }

    // MARK: Work

    /// Uploads the next batch of the outbox and waits for its answer; returns whether there was one.
    private func uploadBatch() async throws -> Bool {
        guard let read = try await readBatch(after: nil), let first = read.changes.first, let last = read.changes.last
        else {
            lock.withLock { currentProgress.pendingUploads = 0 }
            return false
        }
        SyncTrace.note(path, "upload \(read.changes.count) changes, \(first.seq)-\(last.seq)")
        let answer = try await send(read.changes, clientID: read.clientID, after: nil)
        SyncTrace.note(path, "upload answered, \(first.seq)-\(last.seq)")
        try await acknowledge(answer, lastSent: last.seq)
        return true
    }

    /// Uploads the outbox until it is empty, sending each batch as soon as it is read (docs/SYNC.md, "Sending
    /// ahead"): to a server that keeps order, up to ``SyncConfiguration/uploadsAhead`` more batches are on their way
    /// at once, each naming the last change sent before it (`after`), so that a change committed while an upload is
    /// under way leaves at once instead of after that upload's answer (by default none: one batch at a time). Answers are taken in the order the batches left. After a
    /// failure nothing more is sent; the batches still on their way are waited for, and the first failure is thrown
    /// (the next round starts again from the acknowledged number). Returns whether anything was sent.
    private func uploadAhead() async throws -> Bool {
        var inFlight: [UploadInFlight] = []
        var sentAny = false
        var failure: (any Error)?
        while true {
            // Read before looking for work: an answer or a commit after this point ends the wait below at once.
            let seen = uploadSignal.generation
            let limit = lock.withLock { serverKeepsOrder } ? 1 + max(0, configuration.uploadsAhead) : 1
            if failure == nil, inFlight.count < limit, state == .active,
                let read = try await readBatch(after: inFlight.last?.last),
                let first = read.changes.first, let last = read.changes.last
            {
                let (clientID, batch) = (read.clientID, read.changes)
                SyncTrace.note(path, "upload \(batch.count) changes, \(first.seq)-\(last.seq)")
                let after = inFlight.last?.last
                let flight = UploadInFlight(last: last.seq)
                inFlight.append(flight)
                sentAny = true
                let signal = uploadSignal
                Task {
                    let result: Result<UploadResponse, any Error>
                    do {
                        result = .success(try await self.send(batch, clientID: clientID, after: after))
                    } catch {
                        result = .failure(error)
                    }
                    SyncTrace.note(self.path, "upload answered, \(first.seq)-\(last.seq)")
                    flight.finish(result)
                    signal.fire()
                }
                continue
            }
            guard let oldest = inFlight.first else {
                if let failure { throw failure }
                if !sentAny { lock.withLock { currentProgress.pendingUploads = 0 } }
                return sentAny
            }
            guard let result = oldest.result else {
                // An answer, or a commit that may be sent ahead, wakes the loop.
                await uploadSignal.wait(past: seen, seconds: 5)
                continue
            }
            inFlight.removeFirst()
            switch result {
            case .success(let answer): try await acknowledge(answer, lastSent: oldest.last)
            case .failure(let error): failure = failure ?? error
            }
        }
    }

    /// The client id and the outbox's changes after `sent` (or after the acknowledged number, when that is higher or
    /// `sent` is `nil`), at most `uploadBatchSize`; `nil` when there are none.
    private func readBatch(after sent: Int64?) async throws -> (clientID: String, changes: [SyncChange])? {
        try await onQueue { () throws -> (clientID: String, changes: [SyncChange])? in
            _ = self.database.refresh()
            let catalog = try self.database.catalog()
            guard let state = try SyncState.load(from: catalog), let tables = try SyncTables.existing(in: catalog)
            else { return nil }
            let batch = try tables.pending(
                after: max(state.acknowledged, sent ?? 0), limit: max(1, self.configuration.uploadBatchSize))
            return batch.isEmpty ? nil : (state.clientID, batch)
        }
    }

    /// Sends one batch (`after`: see ``UploadRequest/after``) and returns the server's answer.
    private func send(_ batch: [SyncChange], clientID: String, after: Int64?) async throws -> UploadResponse {
        let token = lock.withLock { self.token }
        return try await record(token: token) {
            try await transport.upload(clientID: clientID, changes: batch, after: after, token: token)
        }
    }

    /// Stores an upload's answer (changes up to it are not sent again) and whether the server keeps order.
    private func acknowledge(_ answer: UploadResponse, lastSent: Int64) async throws {
        lock.withLock { serverKeepsOrder = answer.keepsOrder }
        let progress = try await onQueue { () throws -> Progress in
            try self.database.acknowledgeSyncUpload(answer, lastSent: lastSent)
            return try self.readProgress()
        }
        lock.withLock { currentProgress = progress }
    }

    /// Downloads the next page and applies it; returns whether another page is waiting.
    private func downloadPage(wait: TimeInterval) async throws -> Bool {
        let (cursor, clientID) = try await onQueue { () throws -> (Int64, String?) in
            _ = self.database.refresh()
            let state = try SyncState.load(from: try self.database.catalog())
            return (state?.cursor ?? 0, state?.clientID)
        }
        let token = lock.withLock { self.token }
        let page = try await record(token: token) {
            try await transport.download(after: cursor, wait: wait, limit: 1000, client: clientID, token: token)
        }
        SyncTrace.note(path, "download answered, \(page.changes.count) changes")
        // A page that arrives after pause() is not applied: paused means offline.
        guard state == .active else { return false }
        let progress = try await onQueue { () throws -> Progress in
            try self.database.applyDownloadedPage(page)
            return try self.readProgress()
        }
        SyncTrace.note(path, "page applied")
        lock.withLock { currentProgress = progress }
        return page.more
    }

    /// Runs `body` on the session's queue, where its database lives, and waits for it without holding one of Swift's
    /// cooperative threads meanwhile (`queue.sync` would block one for a whole page's apply, and the pool has one
    /// thread per core: an app's tasks, and an in-process server's, would wait behind it).
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    private func readProgress() throws -> Progress {
        let catalog = try database.catalog()
        let state = try SyncState.load(from: catalog)
        let acknowledged = state?.acknowledged ?? 0
        let pending = try SyncTables.existing(in: catalog)?.pendingCount(after: acknowledged) ?? 0
        return Progress(
            pendingUploads: pending, acknowledgedChange: acknowledged, downloadedThrough: state?.cursor ?? 0)
    }

    /// Runs a request made with `token`, keeping its failure as ``lastError`` (a refusal of the current token also
    /// moves to ``State/needsToken``) and clearing it on success.
    private func record<T>(token used: String, _ request: () async throws -> T) async throws -> T {
        do {
            let result = try await request()
            lock.withLock { currentError = nil }
            return result
        } catch let error as SyncError {
            lock.withLock {
                // A request that left with a token replaced since then says nothing about the new one.
                guard !error.isTokenRefused || used == token else { return }
                currentError = error
                if error.isTokenRefused { currentState = .needsToken }
            }
            throw error
        }
    }

    // MARK: Loops

    /// The pause after the `failures`th failure in a row: 0.2 s doubling, at most `maximumBackoff`.
    private func backoff(_ failures: Int) -> Double {
        min(configuration.maximumBackoff, 0.2 * pow(2, Double(min(failures, 20))))
    }

    private static func uploadLoop(_ box: WeakSession) async {
        var failures = 0
        while !Task.isCancelled {
            guard let current = box.session else { return }
            let seenState = current.stateSignal.generation
            guard current.state == .active else {
                await current.stateSignal.wait(past: seenState, seconds: 1)
                continue
            }
            let seen = current.uploadSignal.generation
            do {
                if try await current.uploadAhead() {
                    failures = 0
                    continue
                }
                failures = 0
                await current.uploadSignal.wait(past: seen, seconds: 5)
            } catch {
                failures += 1
                // Past the answers of the failed round: only a commit (or a resume) from now on cuts the pause short.
                await current.uploadSignal.wait(
                    past: current.uploadSignal.generation, seconds: current.backoff(failures))
            }
        }
    }

    private static func downloadLoop(_ box: WeakSession) async {
        var failures = 0
        var more = false
        while !Task.isCancelled {
            guard let current = box.session else { return }
            let seenState = current.stateSignal.generation
            guard current.state == .active else {
                await current.stateSignal.wait(past: seenState, seconds: 1)
                continue
            }
            do {
                more = try await current.downloadPage(wait: more ? 0 : current.configuration.downloadWait)
                failures = 0
            } catch {
                failures += 1
                more = false
                await current.stateSignal.wait(
                    past: current.stateSignal.generation, seconds: current.backoff(failures))
            }
        }
    }
}

/// One upload batch on its way to the server, and its answer once it came.
private final class UploadInFlight: @unchecked Sendable {
    /// The number of the batch's last change.
    let last: Int64
    private let lock = NSLock()
    private var answer: Result<UploadResponse, any Error>?

    init(last: Int64) { self.last = last }

    /// The answer, or the failure, once the request ended.
    var result: Result<UploadResponse, any Error>? { lock.withLock { answer } }

    /// Keeps the request's outcome.
    func finish(_ result: Result<UploadResponse, any Error>) { lock.withLock { answer = result } }
}

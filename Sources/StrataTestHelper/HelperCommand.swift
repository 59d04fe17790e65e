import Foundation
import StrataStorage
import StrataTestSupport

/// The jobs the pager tests run in a child process (`strata-test-helper <command> <arguments>`).
///
/// - `commit-loop PATH DURABILITY [KEY]`: commits pattern-tree transactions forever, printing `committed VERSION
///   STEP` after each acknowledged commit (the parent kills it with SIGKILL at a random moment). KEY, 128
///   hexadecimal digits, encrypts the store.
/// - `read-check PATH SECONDS [KEY]`: for SECONDS, pins snapshots, checks every node, checks them again later to
///   see they never changed, and prints `checked N` (or `error: …` and exits 1). KEY as for `commit-loop`.
/// - `write-steps PATH COUNT`: commits COUNT pattern-tree transactions, competing with other writers, then
///   prints `wrote COUNT`.
/// - `pin PATH`: pins the newest version, prints `pinned VERSION`, then waits to be killed.
/// - `commit-after PATH SECONDS`: opens the store, prints `open VERSION`, waits SECONDS, commits one pattern-tree
///   transaction and prints `committed VERSION`.
/// - `wait-commit PATH VERSION SECONDS`: prints `waiting`, then `Store.waitForCommit(after: VERSION, timeout:
///   SECONDS)` and prints `woke VERSION` with what it returned.
/// - `compact-loop PATH`: forever opens the store asking to compact it (`StoreOptions.compactOnOpen`), commits
///   one `StepTable` step, prints `committed STEP` and closes it (the parent kills it at a random moment, often
///   while it compacts).
/// - `step-loop PATH`: opens the store once and commits `StepTable` steps forever (every kind of value, sets,
///   maps and embedded rows), printing `committed STEP` after each acknowledged one (the parent kills it).
/// - `hold-writer PATH RELEASE`: begins a write transaction (taking the writer lock), prints `holding VERSION`,
///   waits until the file RELEASE exists, rolls the write back and prints `released` (the async-write tests:
///   writers of the parent process wait for it).
/// - `stall-recovery PATH`: opens the store as its first opener and stops when recovery opens the data file,
///   printing `recovering` and waiting to be killed: a first opener that dies before it has recovered the file.
/// - `log-step-loop PATH`, `log-write-steps PATH COUNT`: as `step-loop` and `write-steps`, on a store with a commit
///   log (`StoreOptions.commitLog`, a checkpoint every 64 KiB of records).
/// - `log-pin-check PATH RELEASE`: on a store with a commit log, pins the newest version, prints `pinned VERSION`,
///   then reads it again and again while others commit and checkpoint, until the file RELEASE exists, and prints
///   `checked N` (or `error: …` and exits 1).
enum HelperCommand {
    static func run(_ arguments: [String]) throws {
        guard arguments.count >= 2 else { throw usage() }
        let path = arguments[1]
        switch arguments[0] {
        case "commit-loop":
            var options = StoreOptions(durability: arguments.count > 2 && arguments[2] == "batched" ? .batched : .full)
            options.encryptionKey = arguments.count > 3 ? try key(hex: arguments[3]) : nil
            try commitLoop(path: path, options: options)
        case "read-check":
            var options = StoreOptions()
            options.encryptionKey = arguments.count > 3 ? try key(hex: arguments[3]) : nil
            try readCheck(path: path, seconds: Double(arguments.count > 2 ? arguments[2] : "1") ?? 1, options: options)
        case "write-steps":
            try writeSteps(path: path, count: Int(arguments.count > 2 ? arguments[2] : "1") ?? 1)
        case "commit-after":
            let store = try Store.open(path: path)
            say("open \(store.latestCommittedVersion)")
            usleep(UInt32(max(0, min(Double(arguments.count > 2 ? arguments[2] : "0") ?? 0, 60)) * 1e6))
            var random = SystemRandomNumberGenerator()
            let writer = try store.beginWrite()
            _ = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            say("committed \(writer.version)")
        case "wait-commit":
            let store = try Store.open(path: path)
            let after = UInt64(arguments.count > 2 ? arguments[2] : "0") ?? 0
            say("waiting")
            let woke = store.waitForCommit(after: after, timeout: Double(arguments.count > 3 ? arguments[3] : "10") ?? 10)
            say("woke \(woke)")
        case "compact-loop":
            try compactLoop(path: path)
        case "step-loop":
            let store = try Store.open(path: path)
            while true { say("committed \(try StepTable.advance(store))") }
        case "stall-recovery":
            // A store opened through a `StorageIO` takes its path as given; other openers resolve symbolic links
            // (`/var` is `/private/var` on macOS), and the lock file must be theirs.
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            _ = try Store.open(path: resolved, options: StoreOptions(io: StallingStorage(stallingAt: resolved)))
            throw StrataError.invalidArgument("'\(path)' was opened by another process first: nothing to stall")
        case "hold-writer":
            guard arguments.count > 2 else { throw usage() }
            let store = try Store.open(path: path)
            let writer = try store.beginWrite()
            say("holding \(writer.version)")
            while !FileManager.default.fileExists(atPath: arguments[2]) { usleep(5_000) }
            writer.rollback()
            say("released")
        case "log-step-loop":
            let store = try Store.open(path: path, options: logOptions())
            while true { say("committed \(try StepTable.advance(store))") }
        case "log-write-steps":
            try writeSteps(
                path: path, count: Int(arguments.count > 2 ? arguments[2] : "1") ?? 1, options: logOptions())
        case "log-pin-check":
            guard arguments.count > 2 else { throw usage() }
            try pinCheck(path: path, release: arguments[2])
        case "pin":
            let store = try Store.open(path: path)
            let reader = try store.beginRead()
            say("pinned \(reader.version)")
            while true { sleep(60) }
        default:
            throw usage()
        }
    }

    /// The bytes of a key given as hexadecimal digits.
    static func key(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        return try stride(from: 0, to: digits.count - 1, by: 2).map { index in
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                throw StrataError.invalidArgument("the key '\(hex)' is not hexadecimal")
            }
            return byte
        }
    }

    static func commitLoop(path: String, options: StoreOptions) throws {
        let store = try Store.open(path: path, options: options)
        var random = SystemRandomNumberGenerator()
        while true {
            let writer = try store.beginWrite()
            let state = try PatternTree.advance(writer, random: &random)
            try writer.commit()
            say("committed \(writer.version) \(state.step)")
        }
    }

    static func compactLoop(path: String) throws {
        var options = StoreOptions()
        options.compactOnOpen = { _, _ in true }
        while true {
            let store = try Store.open(path: path, options: options)
            let step = try StepTable.advance(store)
            say("committed \(step)")
            store.close()
        }
    }

    static func readCheck(path: String, seconds: Double, options: StoreOptions) throws {
        let store = try Store.open(path: path, options: options)
        let deadline = Date().addingTimeInterval(seconds)
        var checked = 0
        var lastStep: UInt64 = 0
        while Date() < deadline {
            let reader = try store.beginRead()
            let first = try PatternTree.read(reader)
            guard first.step >= lastStep else {
                throw PatternTree.Mismatch(description: "step went back from \(lastStep) to \(first.step)")
            }
            lastStep = first.step
            usleep(UInt32.random(in: 0...2000))
            let second = try PatternTree.read(reader)
            guard first == second else {
                throw PatternTree.Mismatch(description: "version \(reader.version) changed while pinned")
            }
            reader.end()
            checked += 1
        }
        say("checked \(checked) \(lastStep)")
    }

    /// Options of a store with a commit log, checkpointing every 64 KiB of records.
    static func logOptions() -> StoreOptions {
        var options = StoreOptions()
        options.commitLog = true
        options.logCheckpointThreshold = 64 << 10
        return options
    }

    static func pinCheck(path: String, release: String) throws {
        let store = try Store.open(path: path, options: logOptions())
        let reader = try store.beginRead()
        let pinned = try PatternTree.read(reader)
        say("pinned \(reader.version)")
        var checked = 0
        while !FileManager.default.fileExists(atPath: release) {
            guard try PatternTree.read(reader) == pinned else {
                throw PatternTree.Mismatch(description: "version \(reader.version) changed while pinned")
            }
            checked += 1
            usleep(1000)
        }
        reader.end()
        say("checked \(checked)")
    }

    static func writeSteps(path: String, count: Int, options: StoreOptions = StoreOptions()) throws {
        let store = try Store.open(path: path, options: options)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<count {
            let writer = try store.beginWrite()
            _ = try PatternTree.advance(writer, random: &random)
            try writer.commit()
        }
        say("wrote \(count)")
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func usage() -> StrataError {
        .invalidArgument(
            "usage: strata-test-helper commit-loop|read-check|write-steps|pin|commit-after|wait-commit|compact-loop|"
                + "stall-recovery|hold-writer|log-step-loop|log-write-steps|log-pin-check PATH [ARGUMENT…]")
    }
}

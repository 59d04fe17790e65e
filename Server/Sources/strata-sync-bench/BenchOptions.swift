import Foundation

/// Who the bench's devices are, and what the observing device receives.
enum BenchMode {
    /// Every device is its own user, under an `owner` rule: a device receives its own user's changes only.
    case perUser
    /// Every device is the same user, and the model is shared: every device receives every change.
    case shared

    /// The rules file's rule for the bench's model.
    var rule: String {
        switch self {
        case .perUser: return "{ owner: owner }"
        case .shared: return "{ shared: readWrite }"
        }
    }

    /// The user of committing device `index` (the observer is a second device of device 0's user).
    func user(ofDevice index: Int) -> String {
        switch self {
        case .perUser: return "user\(index)"
        case .shared: return "bench"
        }
    }

    /// How many changes reach the observer.
    func observedChanges(clients: Int, changes: Int) -> Int {
        switch self {
        case .perUser: return changes
        case .shared: return clients * changes
        }
    }

    /// What the observer receives, for the report.
    var observerDescription: String {
        switch self {
        case .perUser: return "user 0's second device: user 0's changes only"
        case .shared: return "a further device of the shared user: every change"
        }
    }
}

/// The command line: `[--postgres URL] [--clients N] [--changes N] [--shared] [--rate N [--lockstep]] [--offline]
/// [--ahead N] [--upload-groups N] [--port N] [--keep-schema]`, or
/// `--device-cost N`.
struct BenchOptions {
    var postgres =
        ProcessInfo.processInfo.environment["STRATA_SYNC_TEST_POSTGRES"]
        ?? "postgres://strata:strata@127.0.0.1:5432/strata_test"
    var clients = 20
    var changes = 1000
    var port = 18_765
    var mode = BenchMode.perUser
    /// Commits per second per device; 0 commits as fast as the device can.
    var rate = 0.0
    /// Whether the devices commit offline (their sessions paused) and sync only once every commit is made: the
    /// throughput into PostgreSQL is then the server's and PostgreSQL's, without the devices' local commits
    /// competing for the same cores.
    var offline = false
    /// Whether paced devices commit all at once (`--lockstep`: the 20 devices' `n`th commits at the same instant,
    /// the shape of the runs before this option) instead of spread evenly over each period.
    var lockstep = false
    /// With a count, the bench measures a device's own commits with sync off and on (no server) and stops
    /// (``DeviceCost``).
    var deviceCost = 0
    /// How many batches each device may send ahead of the previous one's answer (`SyncConfiguration.uploadsAhead`,
    /// 0 by default as in an app).
    var uploadsAhead = 0
    /// How many groups of uploads the server applies at once (`SyncServerConfiguration.uploadGroups`).
    var uploadGroups = 2
    /// Whether the run's PostgreSQL schema stays when the run ends (`--keep-schema`), to look at its tables.
    var keepsSchema = false

    init(arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--shared" {
                mode = .shared
                continue
            }
            if argument == "--offline" {
                offline = true
                continue
            }
            if argument == "--lockstep" {
                lockstep = true
                continue
            }
            if argument == "--keep-schema" {
                keepsSchema = true
                continue
            }
            let value = iterator.next() ?? ""
            switch argument {
            case "--postgres": postgres = value
            case "--clients": clients = max(1, Int(value) ?? clients)
            case "--changes": changes = max(1, Int(value) ?? changes)
            case "--port": port = Int(value) ?? port
            case "--rate": rate = max(0, Double(value) ?? rate)
            case "--device-cost": deviceCost = max(1, Int(value) ?? 10_000)
            case "--ahead": uploadsAhead = max(0, Int(value) ?? 0)
            case "--upload-groups": uploadGroups = max(1, Int(value) ?? uploadGroups)
            default:
                FileHandle.standardError.write(Data("unknown option \(argument)\n".utf8))
                exit(2)
            }
        }
    }

    /// How long after the start paced device `index` makes its first commit: devices spread evenly over one
    /// period (`1 / rate`), so that the offered load arrives at an even `clients × rate` per second as from
    /// independent devices, not in bursts of one commit per device; 0 with `--lockstep` or without pacing.
    func offset(ofDevice index: Int) -> TimeInterval {
        guard rate > 0, !lockstep else { return 0 }
        return Double(index) / (Double(clients) * rate)
    }

    /// One line saying what runs.
    var summary: String {
        let who =
            switch mode {
            case .perUser: "\(clients) users (owner rule) x 1 device"
            case .shared: "\(clients) devices of one user (shared model)"
            }
        let pace =
            rate > 0
            ? "paced at \(rate) commits/s per device" + (lockstep ? ", all at once" : ", spread over each period")
            : "saturating (no pacing)"
        let sync = offline ? ", committed offline, then synced" : ""
        let ahead = uploadsAhead > 0 ? ", up to \(uploadsAhead) uploads sent ahead" : ""
        return "\(who) x \(changes) one-object commits, \(pace)\(sync)\(ahead), \(uploadGroups) upload groups at once"
    }
}

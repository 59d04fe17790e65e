import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's own memory figures.
enum ProcessMemory {
    /// The peak resident set size so far, in bytes (`getrusage`; kilobytes on Linux, bytes on macOS).
    static var peakResidentBytes: Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
        #endif
    }
}

/// The peak anonymous memory of the process (Linux `RssAnon`: heap, stacks, private mappings; not the file
/// pages a memory-mapped store's scans bring in, which `getrusage`'s peak counts and SQLite's `read()` into its
/// own cache does not). The kernel keeps no peak for it, so a thread samples `/proc/self/status` every 5 ms.
/// Elsewhere (no `/proc`) it reports nil.
final class AnonymousMemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private var finished = false

    /// Starts sampling at once.
    init() {
        guard Self.currentBytes() != nil else {
            finished = true
            return
        }
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let now = Self.currentBytes() ?? 0
                lock.withLock { peak = max(peak, now) }
                usleep(5_000)
            }
            lock.withLock { finished = true }
        }
        thread.start()
    }

    /// Stops sampling; returns the peak in bytes, nil where `/proc/self/status` has no `RssAnon`.
    func stop() -> Int? {
        guard let last = Self.currentBytes() else { return nil }
        lock.withLock { running = false }
        while !lock.withLock({ finished }) { usleep(1_000) }
        return lock.withLock { max(peak, last) }
    }

    /// `RssAnon` now, in bytes.
    private static func currentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return kilobytes.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one child process cost: wall-clock time, CPU time (user + system, steadier than wall time on a machine
/// shared with other work) and peak resident memory, from `wait4`'s resource usage of that child alone.
struct ProcessCost {
    /// Seconds from spawn to exit.
    var wallSeconds: Double
    /// User plus system CPU seconds of the child.
    var cpuSeconds: Double
    /// The child's peak resident set size, in bytes.
    var peakBytes: Int

    /// Runs `executable` with `arguments` (standard output and error inherited), waits for it and returns its
    /// cost; throws if it cannot start or exits with a failure.
    static func measure(_ executable: String, _ arguments: [String]) throws -> ProcessCost {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let start = ContinuousClock.now
        let spawned = posix_spawnp(&pid, executable, nil, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw BenchmarkError("waiting for \(executable) failed (errno \(errno))") }
        }
        let elapsed = ContinuousClock.now - start
        // WIFEXITED and WEXITSTATUS, which Swift does not import: exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed (wait status \(status))")
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        #if canImport(Darwin)
        let peak = Int(usage.ru_maxrss)
        #else
        let peak = Int(usage.ru_maxrss) * 1024
        #endif
        return ProcessCost(
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            peakBytes: peak)
    }
}

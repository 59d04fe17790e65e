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

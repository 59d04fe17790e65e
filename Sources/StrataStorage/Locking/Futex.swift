#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sleeping on a 32-bit word of shared memory until another thread or process changes it (Linux `futex`).
///
/// The operations are the shared (not `FUTEX_PRIVATE_FLAG`) ones, so the kernel keys a waiter by the file and
/// offset of a `MAP_SHARED` mapping: a process that changes the word in its own mapping of the lock file and calls
/// `wake` wakes the waiters of every process. Elsewhere `isSupported` is false and callers poll.
enum Futex {
    /// Whether this platform has shared futexes.
    static var isSupported: Bool {
        #if os(Linux)
        return call != nil && futexSystemCall > 0
        #else
        return false
        #endif
    }

    /// Sleeps while the word at `word` holds `expected`, until a `wake` on it or `seconds` pass (spurious
    /// returns happen: callers re-read what they wait for).
    static func wait(_ word: UnsafeMutableRawPointer, expected: UInt32, seconds: Double) {
        #if os(Linux)
        guard let call, futexSystemCall > 0 else { return }
        let clamped = max(0, min(seconds, 3600))
        var timeout = timespec(tv_sec: Int(clamped), tv_nsec: Int((clamped - clamped.rounded(.down)) * 1e9))
        _ = withUnsafePointer(to: &timeout) { pointer in
            call(futexSystemCall, Int(bitPattern: word), waitOperation, Int(expected), Int(bitPattern: pointer), 0, 0)
        }
        #endif
    }

    /// Wakes every thread, in any process, sleeping in `wait` on `word`.
    static func wake(_ word: UnsafeMutableRawPointer) {
        #if os(Linux)
        guard let call, futexSystemCall > 0 else { return }
        _ = call(futexSystemCall, Int(bitPattern: word), wakeOperation, Int(Int32.max), 0, 0, 0)
        #endif
    }

    #if os(Linux)
    /// `syscall(2)` with six integer arguments.
    ///
    /// Swift does not import C variadic functions, so the symbol is looked up and called through a fixed C
    /// prototype. That is sound on Linux's x86-64 and arm64 ABIs, where a variadic callee receives integer
    /// arguments in the same registers as a fixed one (glibc's `syscall` is an assembly stub that only moves them
    /// into the kernel's registers). Pointers are passed as their integer values for the same reason.
    private typealias SystemCall = @convention(c) (Int, Int, Int, Int, Int, Int, Int) -> Int

    private static let call: SystemCall? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall") else { return nil }
        return unsafeBitCast(symbol, to: SystemCall.self)
    }()

    #if arch(x86_64)
    private static let futexSystemCall = 202
    #elseif arch(arm64) || arch(aarch64)
    private static let futexSystemCall = 98
    #else
    private static let futexSystemCall = -1
    #endif
    /// `FUTEX_WAIT` and `FUTEX_WAKE`, without `FUTEX_PRIVATE_FLAG` (128) so they work across processes.
    private static let waitOperation = 0
    private static let wakeOperation = 1
    #endif
}

import Foundation
import Synchronization

extension Configuration {
    private static let sharedDefault = Mutex<Configuration?>(nil)

    /// The configuration `Database()` opens. Set it once at launch; `nil` until set, in which case
    /// `Database()` fails with a message saying so (a schema is needed to open a database).
    public static var defaultConfiguration: Configuration? {
        get { sharedDefault.withLock { $0 } }
        set { sharedDefault.withLock { $0 = newValue } }
    }

    /// `default.strata` in the platform's application-support directory for this executable.
    public static var defaultFileURL: URL {
        defaultDirectory.appendingPathComponent("default.strata")
    }

    /// The directory default databases live in (created on first open).
    public static var defaultDirectory: URL {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "strata").lastPathComponent
        let environment = ProcessInfo.processInfo.environment
        #if os(Linux)
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return URL(fileURLWithPath: dataHome).appendingPathComponent(executable)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share").appendingPathComponent(executable)
        #else
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent("Library/Application Support")
            .appendingPathComponent(executable)
        #endif
    }

    /// The store path this configuration opens: the file's path, or `memory:<identifier>`.
    var storeDescription: String {
        inMemoryIdentifier.map { "memory:\($0)" } ?? fileURL.path
    }
}

import Foundation

/// Writes to standard error, where compilers print diagnostics: SwiftPM and editors read them there.
enum StandardError {
    /// Writes `text` and a newline.
    static func print(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

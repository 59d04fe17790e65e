import ArgumentParser
import Foundation
import StrataStorage

/// `--key-file PATH`: how every command opens an encrypted database. The key is read from a file, never taken on
/// the command line, where other users of the machine could read it in the process list.
struct KeyFileOption: ParsableArguments {
    @Option(
        name: .customLong("key-file"),
        help: "A file holding the database's 64-byte encryption key: 64 raw bytes, or 128 hexadecimal digits.")
    var path: String?

    /// Options for opening a database with the key (if any).
    func storeOptions(readOnly: Bool = false) throws -> StoreOptions {
        var options = StoreOptions(readOnly: readOnly)
        options.encryptionKey = try key()
        return options
    }

    /// The key in the file, nil when no file was given.
    ///
    /// - Throws: `ValidationError` saying what is wrong with the file.
    func key() throws -> [UInt8]? {
        guard let path else { return nil }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the key file '\(path)'")
        }
        if contents.count == 64 { return Array(contents) }
        let text = String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let digits = Array(text.utf8)
        guard digits.count == 128 else {
            throw ValidationError(
                "the key file '\(path)' holds \(contents.count) bytes; it must hold 64 raw bytes or 128 hexadecimal digits")
        }
        var key: [UInt8] = []
        key.reserveCapacity(64)
        for index in stride(from: 0, to: 128, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                throw ValidationError("the key file '\(path)' has a character that is not a hexadecimal digit near position \(index)")
            }
            key.append(byte)
        }
        return key
    }
}

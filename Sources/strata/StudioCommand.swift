import ArgumentParser
import Dispatch
import Foundation
import StrataStudio

/// `strata studio FILE [--key-file K] [--read-only] [--port N]`: serves Strata Studio, a local web page to look
/// at, query and edit the file, on 127.0.0.1 behind a random access token (docs/STUDIO.md).
struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Serve a web page on 127.0.0.1 to browse, query, edit, export and import the database.",
        discussion: """
            The page's address holds a random access token; requests without it are refused. Only this machine \
            can connect (the server listens on the loopback interface). Stop it with Ctrl-C.
            """)

    @Argument(help: "The database file (NAME.strata).")
    var file: String

    @Flag(name: .customLong("read-only"), help: "Refuse edits (the file is opened read-only).")
    var readOnly = false

    @Option(help: "The port to listen on (0, the default, picks a free one).")
    var port = 0

    @OptionGroup var keyFile: KeyFileOption

    func run() async throws {
        let server = try StudioServer(
            configuration: StudioConfiguration(
                path: file, encryptionKey: try keyFile.key(), readOnly: readOnly, port: port))
        if let problem = server.database.openError {
            FileHandle.standardError.write(Data("strata studio: \(problem)\nThe page shows this error.\n".utf8))
        }
        // SIGINT (Ctrl-C) and SIGTERM stop it gracefully: the page's live streams end, then the server.
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { Task { await server.stop() } }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try await server.run { port in
            // Written at once (not through print's buffer), so a program reading the pipe sees the address.
            let text = "Strata Studio for \(file)" + (readOnly ? " (read-only)" : "") + "\n"
                + "Open \(server.address(port: port))\n"
                + "Only this machine can connect, and only with the token above. Press Ctrl-C to stop.\n"
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        server.close()
    }
}

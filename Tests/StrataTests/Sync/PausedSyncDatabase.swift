import Foundation
import StrataSyncWire
import StrataTestSupport

@testable import Strata

/// The sync client without a server, for the outbox tests: a `Syncbook` database whose session is created paused
/// (`startsImmediately = false`), so nothing is sent anywhere, and changes shaped as the server hands them out.
enum PausedSyncDatabase {
    /// Opens (or reopens) `name.strata` in `directory` with a paused sync session.
    static func open(_ name: String, in directory: TemporaryDirectory) throws -> Database {
        var configuration = Configuration(schema: Syncbook.self)
            .scratch(at: directory.url.appendingPathComponent("\(name).strata"))
        var sync = SyncConfiguration(server: URL(string: "http://127.0.0.1:9")!, token: "unused")
        sync.startsImmediately = false
        configuration.sync = sync
        return try Database(configuration: configuration)
    }

    /// A change another client made, as the server's log numbers it (`seq`), with a clock reading at `wall`.
    static func remote(
        _ seq: Int64, _ op: SyncOperation, _ object: SyncValue, model: String, wall: Int64, client: String = "remote",
        property: String? = nil, value: SyncValue? = nil, element: String? = nil, position: String? = nil
    ) -> ServerChange {
        let hlc = HybridClock.reading(wall: wall, counter: 0, clientID: client)
        return ServerChange(
            serverSeq: seq, clientId: client,
            change: SyncChange(
                seq: seq, hlc: hlc, model: model, object: object, op: op, property: property, value: value,
                element: element, position: position))
    }
}

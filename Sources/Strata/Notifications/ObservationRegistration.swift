import Foundation
import StrataStorage

/// The steps every `observe` shares: place the observation (which database, which queue), build it, hand it
/// to the notifier, and wrap it in a token.
enum ObservationRegistration {
    /// Registers what `make` builds for the placed database; on failure calls `report` (at once, on the
    /// caller's thread) and returns a token that observes nothing.
    static func register(
        _ database: Database, on queue: DispatchQueue?, report: (Error) -> Void,
        make: (Database) throws -> Observation
    ) -> NotificationToken {
        do {
            let (target, notifier) = try ObserverPlacement.place(database, on: queue)
            let observation = try make(target)
            notifier.add(observation)
            return NotificationToken(observation: observation) { [weak notifier] in notifier?.remove(observation) }
        } catch {
            report(error)
            return .inert()
        }
    }
}

/// The `changes` async sequences: an observation on one shared serial queue whose changes are yielded to a
/// stream; ending the iteration invalidates the token.
enum ChangeStream {
    /// The queue every stream's observations run on (so one database per store serves them all).
    static let queue = DispatchQueue(label: "Strata.changes")

    /// A stream of what `start`'s observation sends; a change that ends the observation (`.error`) is the
    /// stream's last element, after which it finishes, so that a `for await` loop ends there.
    static func make<Change: StreamedChange>(
        _ start: (DispatchQueue, @escaping (Change) -> Void) -> NotificationToken
    ) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .unbounded)
        let sink = StreamSink(continuation)
        let token = start(queue) { sink.yield($0) }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}

/// A change an observation sends, which may be its last.
protocol StreamedChange: SendableMetatype {
    /// Whether the observation ends with this change (an error).
    var endsObservation: Bool { get }
}

extension CollectionChange: StreamedChange {
    var endsObservation: Bool {
        if case .error = self { return true }
        return false
    }
}

extension MapChange: StreamedChange {
    var endsObservation: Bool {
        if case .error = self { return true }
        return false
    }
}

extension ObjectChange: StreamedChange {
    var endsObservation: Bool {
        if case .error = self { return true }
        return false
    }
}

/// A stream's continuation, reached from the delivery queue. The changes it carries hold frozen, immutable
/// collections and objects (readable from any thread), which the compiler cannot tell from live ones: hence
/// the unchecked hand-over.
private final class StreamSink<Change: StreamedChange>: @unchecked Sendable {
    private let continuation: AsyncStream<Change>.Continuation
    init(_ continuation: AsyncStream<Change>.Continuation) { self.continuation = continuation }
    func yield(_ change: Change) {
        let ends = change.endsObservation
        nonisolated(unsafe) let frozen = change
        continuation.yield(frozen)
        if ends { continuation.finish() }
    }
}

extension Database {
    /// This database's binding of `model` (bound by another database of the same store and schema).
    func model(like model: ModelBinding) throws -> ModelBinding {
        guard let own = schema.model(named: model.name) else {
            throw StrataError.invalidArgument(
                "\(model.name) is not a model of the database observers use on this queue; open it with the same "
                    + "configuration (objectTypes included)")
        }
        return own
    }
}

import Foundation
internal import StrataSyncWire

/// The client's hybrid logical clock (docs/SYNC.md, "Clock readings"): readings
/// `WWWWWWWWWWWWWWWW-CCCCCCCCCC-clientId` that compare byte by byte as wall clock, then counter, then client id.
///
/// `wall = max(previous wall, now, highest wall seen in downloads)`; the counter goes up by one when the wall did
/// not move and restarts at 0 when it did. Kept in the file with the rest of ``SyncState``.
struct HybridClock: Hashable, Sendable {
    /// The last reading's wall-clock milliseconds.
    var wall: Int64
    /// The last reading's counter.
    var counter: Int64
    /// The client whose readings these are.
    let clientID: String

    /// A new reading, later than every earlier one and than every reading ``observe(_:)`` saw.
    mutating func tick(now: Date = Date()) -> String {
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        if milliseconds > wall {
            wall = milliseconds
            counter = 0
        } else {
            counter += 1
        }
        return Self.reading(wall: wall, counter: counter, clientID: clientID)
    }

    /// Moves the wall clock up to a downloaded reading's, so the next local change is later than it.
    mutating func observe(_ reading: String) {
        guard let (otherWall, otherCounter) = Self.parts(of: reading) else { return }
        if otherWall > wall {
            wall = otherWall
            counter = otherCounter
        } else if otherWall == wall, otherCounter > counter {
            counter = otherCounter
        }
    }

    /// The wire form of a reading.
    static func reading(wall: Int64, counter: Int64, clientID: String) -> String {
        HybridTimestamp(wallMilliseconds: wall, counter: counter, clientID: clientID).description
    }

    /// The wall clock and counter of a reading, or `nil` when `reading` is not one.
    static func parts(of reading: String) -> (wall: Int64, counter: Int64)? {
        HybridTimestamp(reading).map { ($0.wallMilliseconds, $0.counter) }
    }
}

extension String {
    /// Whether this clock reading (or position identifier) sorts before `other`, byte by byte.
    func syncPrecedes(_ other: String) -> Bool { utf8.lexicographicallyPrecedes(other.utf8) }
}

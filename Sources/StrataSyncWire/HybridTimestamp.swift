/// A hybrid logical clock reading: wall-clock milliseconds, a counter for events within one millisecond, and the
/// id of the client that made it, which breaks ties.
///
/// On the wire it is the string `WWWWWWWWWWWWWWWW-CCCCCCCCCC-client` (16 and 10 zero-padded decimal digits), so
/// comparing two strings byte by byte compares the readings (the server stores them with `COLLATE "C"`).
public struct HybridTimestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 on the writer's clock, never less than any reading it has seen.
    public var wallMilliseconds: Int64
    /// Orders readings within one millisecond.
    public var counter: Int64
    /// The client that made the reading.
    public var clientID: String

    /// Creates a reading.
    public init(wallMilliseconds: Int64, counter: Int64, clientID: String) {
        self.wallMilliseconds = wallMilliseconds
        self.counter = counter
        self.clientID = clientID
    }

    /// Parses the wire form; `nil` if `text` is not one.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 16, parts[1].count == 10, !parts[2].isEmpty,
            parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit),
            let wall = Int64(parts[0]), let counter = Int64(parts[1])
        else { return nil }
        self.init(wallMilliseconds: wall, counter: counter, clientID: String(parts[2]))
    }

    /// The wire form.
    public var description: String {
        Self.padded(wallMilliseconds, to: 16) + "-" + Self.padded(counter, to: 10) + "-" + clientID
    }

    /// Orders by wall clock, then counter, then client id (byte order, as the wire form sorts).
    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        if lhs.wallMilliseconds != rhs.wallMilliseconds { return lhs.wallMilliseconds < rhs.wallMilliseconds }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return Array(lhs.clientID.utf8).lexicographicallyPrecedes(Array(rhs.clientID.utf8))
    }

    private static func padded(_ value: Int64, to width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

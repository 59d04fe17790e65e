/// Position identifiers of list elements (docs/SYNC.md, conflict rule 4): strings of base-36 digits that sort
/// byte by byte, so that a new identifier always fits between two others (fractional indexing).
enum PositionIdentifier {
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// An identifier after `lower` and before `upper` (`nil`: no bound on that side), or `nil` when none fits
    /// (`lower` is not below `upper`). It ends with two random digits, never `0`, so that two clients inserting at
    /// the same place rarely choose the same identifier, and another always fits after it.
    static func between(_ lower: String?, _ upper: String?) -> String? {
        let low = Array((lower ?? "").utf8)
        let high = upper.map { Array($0.utf8) }
        if let high, !low.lexicographicallyPrecedes(high) { return nil }
        var result: [UInt8] = []
        var upperFree = high == nil
        var index = 0
        while true {
            let a = index < low.count ? value(low[index]) : 0
            var b = 36
            if !upperFree, let high { b = index < high.count ? value(high[index]) : 0 }
            if b - a > 1 {
                result.append(digits[(a + b) / 2])
                break
            }
            result.append(digits[a])
            if b > a { upperFree = true }
            index += 1
            if index > low.count + (high?.count ?? 0) + 2 { return nil }
        }
        result.append(digits[Int.random(in: 1..<36)])
        result.append(digits[Int.random(in: 1..<36)])
        return String(decoding: result, as: UTF8.self)
    }

    private static func value(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a")) + 10
        default: return 0
        }
    }
}

import StrataStorage

/// Evaluates one string operator (`==`, `BEGINSWITH`, `CONTAINS`, `LIKE`, …) with its `[c]`/`[d]` options
/// against many stored strings, folding the operand once.
///
/// Strings compare by their UTF-8 bytes after folding (no Unicode normalization), exactly as the indexes and
/// the column scans compare them, so a query gives the same answer whichever path the planner takes. `LIKE`
/// works on characters, so that `?` is one user-perceived character.
struct StringMatcher {
    let op: ComparisonOperator
    let folding: StringFolding
    private let operand: [UInt8]
    private let like: LikePattern?

    /// A matcher of `op` against `operand`; `op` must be a string operator, `==` or `!=`.
    init(_ op: ComparisonOperator, _ operand: String, options: StringComparisonOptions) {
        self.op = op
        folding = StringFolding(options: options)
        let folded = folding.fold(operand)
        self.operand = Array(folded.utf8)
        like = op == .like ? LikePattern(folded) : nil
    }

    /// Whether `text <op> operand` holds.
    func matches(_ text: String) -> Bool {
        let folded = folding.fold(text)
        if let like { return like.matches(folded) }
        var text = folded
        return text.withUTF8 { matches(bytes: $0) }
    }

    /// Whether the UTF-8 `bytes` (already folded, or with no options) satisfy the operator.
    func matches(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch op {
        case .equal: return bytes.count == operand.count && Self.same(bytes, at: 0, as: operand)
        case .notEqual: return !(bytes.count == operand.count && Self.same(bytes, at: 0, as: operand))
        case .beginsWith: return bytes.count >= operand.count && Self.same(bytes, at: 0, as: operand)
        case .endsWith: return bytes.count >= operand.count && Self.same(bytes, at: bytes.count - operand.count, as: operand)
        case .contains: return Self.find(operand, in: bytes)
        default: return false
        }
    }

    /// Whether `bytes` holds `operand` at `start` (which leaves room for it): a plain loop over two buffers,
    /// where the generic `Sequence` comparisons cost more than the bytes they compare in a column scan.
    @inline(__always)
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, as operand: [UInt8]) -> Bool {
        operand.withUnsafeBufferPointer { operand in
            for index in 0..<operand.count where bytes[start + index] != operand[index] { return false }
            return true
        }
    }

    /// Whether the matcher can run on raw stored bytes (no folding, no `LIKE`).
    var worksOnRawBytes: Bool { like == nil && folding.options.isEmpty }

    /// The rows among `within` (non-null) of a string column whose raw bytes satisfy the operator; the matcher
    /// must work on raw bytes (``worksOnRawBytes``).
    ///
    /// The operator is chosen once per cluster, not once per row: a prefix runs the column view's own prefix loop,
    /// and the other operators compare against the operand's bytes fetched once, so the per-row work is the
    /// comparison itself (calling ``matches(bytes:)`` per row cost a third of a scan's time).
    func rows(of strings: StringColumnView, within: RowMask) throws -> RowMask {
        if op == .beginsWith { return try strings.matches(prefix: operand, within: within) }
        var mask = RowMask(count: within.count)
        try operand.withUnsafeBytes { operand in
            switch op {
            case .equal:
                try strings.forEachValue(within: within) { row, bytes in
                    if bytes.count == operand.count, Self.same(bytes, at: 0, as: operand) { mask.set(row) }
                }
            case .notEqual:
                try strings.forEachValue(within: within) { row, bytes in
                    if !(bytes.count == operand.count && Self.same(bytes, at: 0, as: operand)) { mask.set(row) }
                }
            case .endsWith:
                try strings.forEachValue(within: within) { row, bytes in
                    if bytes.count >= operand.count, Self.same(bytes, at: bytes.count - operand.count, as: operand) {
                        mask.set(row)
                    }
                }
            default:
                try strings.forEachValue(within: within) { row, bytes in
                    if bytes.withMemoryRebound(to: UInt8.self, { matches(bytes: $0) }) { mask.set(row) }
                }
            }
        }
        return mask
    }

    /// Whether raw `bytes` hold `operand` at `start` (which leaves room for it).
    @inline(__always)
    private static func same(_ bytes: UnsafeRawBufferPointer, at start: Int, as operand: UnsafeRawBufferPointer) -> Bool {
        for index in 0..<operand.count where bytes[start + index] != operand[index] { return false }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}

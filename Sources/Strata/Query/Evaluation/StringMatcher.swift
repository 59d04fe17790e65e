import StrataStorage

/// Evaluates one string operator (`==`, `<`, `BEGINSWITH`, `CONTAINS`, `LIKE`, …) with its `[c]`/`[d]` options
/// against many stored strings (or data values), folding the operand once.
///
/// Strings compare by their UTF-8 bytes after folding (no Unicode normalization), exactly as the indexes and
/// the column scans compare them, so a query gives the same answer whichever path the planner takes; UTF-8 byte
/// order is Unicode scalar order, which is how `<` orders strings. `LIKE` works on characters, so that `?` is one
/// user-perceived character. An empty operand of `BEGINSWITH`, `ENDSWITH` or `CONTAINS` matches nothing, as in
/// Realm and `NSPredicate` (`==` with an empty operand still matches empty values).
struct StringMatcher {
    let op: ComparisonOperator
    let folding: StringFolding
    private let operand: [UInt8]
    private let like: LikePattern?
    /// Whether the operator matches nothing whatever the value: `BEGINSWITH`, `ENDSWITH`, `CONTAINS` with an empty
    /// operand (decided once, not per row).
    let matchesNothing: Bool
    /// For `TEXT`: the parsed full-text query, which folds by itself (the tokenizer folds as `[cd]` does, and by
    /// width), whatever the options.
    let fullText: FullTextQuery?

    /// A matcher of `op` against `operand`; `op` must be a string operator, an ordering, `==` or `!=`.
    init(_ op: ComparisonOperator, _ operand: String, options: StringComparisonOptions) {
        guard op != .text else {
            self.init(op, folding: StringFolding(options: []), operand: [], like: nil, fullText: FullTextQuery(operand))
            return
        }
        let folding = StringFolding(options: options)
        let folded = folding.fold(operand)
        self.init(op, folding: folding, operand: Array(folded.utf8), like: op == .like ? LikePattern(folded) : nil)
    }

    private init(
        _ op: ComparisonOperator, folding: StringFolding, operand: [UInt8], like: LikePattern?,
        fullText: FullTextQuery? = nil
    ) {
        self.op = op
        self.folding = folding
        self.operand = operand
        self.like = like
        self.fullText = fullText
        matchesNothing = fullText.map(\.matchesNothing)
            ?? (operand.isEmpty && (op == .beginsWith || op == .endsWith || op == .contains))
    }

    /// A matcher of `op` against data: its raw bytes, or, under `[c]`, `[d]` or `LIKE` (which are defined on
    /// text), the bytes read as UTF-8 text and folded.
    init(_ op: ComparisonOperator, data operand: [UInt8], options: StringComparisonOptions) {
        guard options.isEmpty, op != .like else {
            self.init(op, String(decoding: operand, as: UTF8.self), options: options)
            return
        }
        self.init(op, folding: StringFolding(options: options), operand: operand, like: nil)
    }

    /// Whether `text <op> operand` holds.
    func matches(_ text: String) -> Bool {
        if let fullText { return fullText.matches(text) }
        let folded = folding.fold(text)
        if let like { return like.matches(folded) }
        var text = folded
        return text.withUTF8 { matches(bytes: $0) }
    }

    /// Whether `data <op> operand` holds (for a matcher made with ``init(_:data:options:)``).
    func matches(data: [UInt8]) -> Bool {
        guard worksOnRawBytes else { return matches(String(decoding: data, as: UTF8.self)) }
        return data.withUnsafeBufferPointer { matches(bytes: $0) }
    }

    /// Whether the UTF-8 `bytes` (already folded, or with no options) satisfy the operator.
    func matches(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if matchesNothing { return false }
        switch op {
        case .equal: return bytes.count == operand.count && Self.same(bytes, at: 0, as: operand)
        case .notEqual: return !(bytes.count == operand.count && Self.same(bytes, at: 0, as: operand))
        case .beginsWith: return bytes.count >= operand.count && Self.same(bytes, at: 0, as: operand)
        case .endsWith: return bytes.count >= operand.count && Self.same(bytes, at: bytes.count - operand.count, as: operand)
        case .contains: return Self.find(operand, in: bytes)
        case .less: return Self.order(bytes, operand) < 0
        case .lessOrEqual: return Self.order(bytes, operand) <= 0
        case .greater: return Self.order(bytes, operand) > 0
        case .greaterOrEqual: return Self.order(bytes, operand) >= 0
        default: return false
        }
    }

    /// `bytes` against `operand` in lexicographic byte order: negative, zero or positive.
    private static func order(_ bytes: UnsafeBufferPointer<UInt8>, _ operand: [UInt8]) -> Int {
        operand.withUnsafeBufferPointer { operand in
            for index in 0..<Swift.min(bytes.count, operand.count) where bytes[index] != operand[index] {
                return bytes[index] < operand[index] ? -1 : 1
            }
            return bytes.count - operand.count
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
    var worksOnRawBytes: Bool { like == nil && fullText == nil && folding.options.isEmpty }

    /// The rows among `within` (non-null) of a string column whose raw bytes satisfy the operator; the matcher
    /// must work on raw bytes (``worksOnRawBytes``).
    ///
    /// The operator is chosen once per cluster, not once per row: a prefix runs the column view's own prefix loop,
    /// and the other operators compare against the operand's bytes fetched once, so the per-row work is the
    /// comparison itself (calling ``matches(bytes:)`` per row cost a third of a scan's time).
    func rows(of strings: StringColumnView, within: RowMask) throws -> RowMask {
        if matchesNothing { return RowMask(count: within.count) }
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
        guard !needle.isEmpty else { return false }
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

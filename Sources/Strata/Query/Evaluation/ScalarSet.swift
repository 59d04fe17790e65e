/// The values of an `IN {…}` list (or `IN %@` with an array), hashed once when the predicate is bound, so that
/// testing one value costs one lookup instead of a comparison with every element: `age IN %@` with 10,000 values
/// over thousands of objects stays linear.
///
/// A membership test says exactly what comparing the value with each element by ``QueryScalar/equal(_:_:)``
/// would: strings compare by their UTF-8 bytes, `nil` equals only `nil`, and an integer equals a double of the
/// same number (those few cross-kind pairs are checked one by one, as the binder converts constants to the key
/// path's kind and leaves mixed lists only for an integer property compared with fractions).
struct ScalarSet {
    /// A value hashed and compared as a query compares it within one kind (strings by their bytes).
    private struct Member: Hashable {
        let value: QueryScalar

        static func == (left: Member, right: Member) -> Bool {
            if case .string(let a) = left.value, case .string(let b) = right.value {
                return a.utf8.elementsEqual(b.utf8)
            }
            return left.value == right.value
        }

        func hash(into hasher: inout Hasher) {
            guard case .string(let text) = value else { return hasher.combine(value) }
            hasher.combine(text.utf8.count)
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    private let members: Set<Member>
    /// The list's integers, which equal doubles of the same number.
    private let integers: [Int64]
    /// The list's doubles, which equal integers of the same number.
    private let doubles: [Double]
    /// The list's numbers when one of them is a decimal (which equals ints and doubles of the same value); empty
    /// otherwise.
    private let decimalNumbers: [QueryScalar]

    /// The set for a comparison `op right` with `options`, or `nil` when it is not an `IN` with a list, or compares
    /// strings with options (`[c]`, `[d]`), which a string matcher decides.
    init?(op: ComparisonOperator, right: BoundOperand, options: StringComparisonOptions) {
        guard op == .in, options.isEmpty, case .list(let values) = right else { return nil }
        members = Set(values.lazy.map(Member.init))
        integers = values.compactMap { if case .int(let number) = $0 { return number } else { return nil } }
        doubles = values.compactMap { if case .double(let number) = $0 { return number } else { return nil } }
        let hasDecimal = values.contains { if case .decimal = $0 { return true } else { return false } }
        decimalNumbers = hasDecimal ? values.filter(\.isNumber) : []
    }

    /// Whether `value` equals an element of the list, as ``QueryScalar/equal(_:_:)`` says.
    func contains(_ value: QueryScalar) -> Bool {
        if members.contains(Member(value: value)) { return true }
        if value.isNumber, !decimalNumbers.isEmpty, decimalNumbers.contains(where: { QueryScalar.equal(value, $0) }) {
            return true
        }
        switch value {
        case .decimal: return (integers.map { QueryScalar.int($0) } + doubles.map { QueryScalar.double($0) })
            .contains { QueryScalar.equal(value, $0) }
        case .int(let number): return doubles.contains { Double(number) == $0 }
        case .double(let number): return integers.contains { Double($0) == number }
        default: return false
        }
    }
}

/// A predicate string parsed once: its tree with argument slots where the `%` placeholders are, ready to be bound
/// to any arguments that fit them.
///
/// Keeping the placeholders as slots (rather than the arguments' values) is what lets a parse be reused: the
/// same format string with other arguments needs no new parse (see `PredicateCache`).
struct ParsedPredicate: Sendable {
    /// The predicate string as written.
    let format: String
    /// The tree; `.argument` operands stand for the placeholders.
    let node: PredicateNode
    /// The placeholders, in argument order.
    let slots: [ArgumentSlot]

    /// Parses `format`.
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the offending token and its offset.
    init(parsing format: String) throws {
        var parser = try PredicateParser(format)
        self = try parser.parse()
    }

    /// A parse made by `PredicateParser`.
    init(format: String, node: PredicateNode, slots: [ArgumentSlot]) {
        self.format = format
        self.node = node
        self.slots = slots
    }

    /// The arguments converted for the slots, in order.
    ///
    /// - Throws: `StrataError.invalidPredicate` at the placeholder whose argument is missing or of the wrong type
    ///   (`%d` needs an integer, `%f` a number, `%K` a key path string), or at the end when there are more
    ///   arguments than placeholders.
    func arguments(_ values: [Any]) throws -> PredicateArguments {
        // `map` sizes the array once; a lookup in a loop converts its arguments on every call.
        let converted = try slots.map { slot in
            guard slot.index < values.count else {
                throw error("the predicate uses more arguments than the \(values.count) given", at: slot.offset)
            }
            return try convert(values[slot.index], for: slot)
        }
        guard values.count == slots.count else {
            throw error("\(values.count) arguments were given but the predicate uses \(slots.count)", at: format.utf8.count)
        }
        return PredicateArguments(values: converted)
    }

    private func convert(_ argument: Any, for slot: ArgumentSlot) throws -> PredicateArguments.Value {
        // A string for `%@` is the common case (`name == %@` in a loop): one cast, without boxing the argument as
        // `Any?` or comparing the letter against every other format. A `String?` holding a string casts too.
        if slot.letter == "@", let text = argument as? String { return .value(.string(text)) }
        if slot.letter == "K" {
            guard let keyPath = argument as? String, !keyPath.isEmpty else {
                throw error("%K needs a key path string argument", at: slot.offset)
            }
            return .keyPath(keyPath.split(separator: ".").map(String.init))
        }
        let value = try QueryValue.argument(argument as Any?, predicate: format, offset: slot.offset)
        switch (slot.letter, value) {
        case ("d", .int), ("i", .int), ("d", .null), ("i", .null): break
        case ("d", _), ("i", _):
            throw error("%\(slot.letter) needs an integer argument, got \(value)", at: slot.offset)
        case ("f", .double), ("f", .int), ("f", .null): break
        case ("f", _):
            throw error("%f needs a floating-point argument, got \(value)", at: slot.offset)
        default: break
        }
        return .value(value)
    }

    private func error(_ message: String, at offset: Int) -> StrataError {
        .invalidPredicate(predicate: format, offset: offset, message: message)
    }
}

/// The arguments of one `filter` call, converted and checked against the predicate's slots.
struct PredicateArguments {
    /// What one argument stands for.
    enum Value {
        /// A constant (`%@`, `%d`, `%f`).
        case value(QueryValue)
        /// A key path of the tested object (`%K`), split at the dots.
        case keyPath([String])
    }

    let values: [Value]

    /// No arguments: typed queries, whose constants are already in the tree.
    static let none = PredicateArguments(values: [])

    /// The operand with its placeholders replaced by their arguments (those inside a `{…}` list too).
    func substituting(_ operand: PredicateOperand) -> PredicateOperand {
        switch operand {
        case .argument(let slot):
            guard slot.index < values.count else { return operand }
            switch values[slot.index] {
            case .value(let value): return .value(value)
            case .keyPath(let components): return .keyPath(root: .object, components: components, offset: slot.offset)
            }
        case .list(let items):
            return .list(items.map(substituting))
        case .keyPathTemplate(let root, let parts, let offset):
            var components: [String] = []
            for part in parts {
                switch part {
                case .name(let name): components.append(name)
                case .argument(let slot):
                    guard slot.index < values.count, case .keyPath(let argument) = values[slot.index] else {
                        return operand
                    }
                    components += argument
                }
            }
            return .keyPath(root: root, components: components, offset: offset)
        default:
            return operand
        }
    }

    /// The comparison with its placeholders replaced; a `BETWEEN %@` gets its two bounds from the argument.
    ///
    /// - Throws: `StrataError.invalidPredicate` at the operator when a `BETWEEN` argument is not two values.
    func substituting(_ comparison: PredicateComparison, predicate: String) throws -> PredicateComparison {
        var result = comparison
        result.left = substituting(comparison.left)
        result.right = substituting(comparison.right)
        if comparison.op == .between, case .argument = comparison.right {
            guard case .value(.list(let bounds)) = result.right, bounds.count == 2 else {
                throw StrataError.invalidPredicate(
                    predicate: predicate, offset: comparison.offset,
                    message: "BETWEEN needs two bounds, as in 'age BETWEEN {18, 65}' or 'age BETWEEN %@' with [18, 65]")
            }
            result.right = .list(bounds.map { .value($0) })
        }
        return result
    }
}

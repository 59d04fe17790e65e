#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Parses an NSPredicate-style string into a `ParsedPredicate`: the tree, with each `%@ %d %f %K` placeholder left
/// as an argument slot numbered left to right, so that the parse of a format string can be kept and reused with
/// other arguments (see `PredicateCache`).
///
/// Grammar (keywords are case-insensitive):
/// ```
/// predicate  := or
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | primary
/// primary    := "(" predicate ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
/// comparison := [ANY | SOME | ALL | NONE] expression operator ["[c]" | "[d]" | "[cd]"] expression
/// expression := keypath [".@count" | ".@sum.prop" | …] | literal | argument | "{" expression, … "}"
///             | "(" expression ")" | SUBQUERY "(" keypath "," $var "," predicate ")" ".@count"
/// keypath    := (name | "%K" | $var) ("." (name | "%K"))*      (each %K one or more components)
/// ```
///
/// Chains of `AND` or `OR` parse into one flat list of terms, however long. Nesting (parentheses, `NOT`, lists
/// `{…}` and SUBQUERYs, counted together) is refused past ``maximumDepth`` levels, at the token that goes past
/// it: the parser, the binder and every walk over the tree recurse once per level, and a deeper tree would
/// overflow the thread's stack.
struct PredicateParser {
    /// How many levels of parentheses, `NOT`s, lists and SUBQUERYs may nest, all counted together: far more than
    /// a written predicate needs, and few enough that parsing, binding and evaluating stay within a 512 KiB
    /// thread stack (a secondary thread's on Apple platforms) even in a debug build, where a level of parentheses
    /// takes about 3 KiB of stack while parsing.
    static let maximumDepth = 100

    private let predicate: String
    private let tokens: [PredicateToken]
    private var position = 0
    /// The placeholders met so far, in order.
    private var slots: [ArgumentSlot] = []
    /// How many levels of nesting enclose the current token.
    private var depth = 0

    /// Tokenizes `predicate`.
    ///
    /// - Throws: `StrataError.invalidPredicate` for a lexical error.
    init(_ predicate: String) throws {
        self.predicate = predicate
        var lexer = PredicateLexer(predicate)
        self.tokens = try lexer.tokenize()
    }

    /// Parses the whole string, leaving its placeholders as argument slots.
    ///
    /// - Throws: `StrataError.invalidPredicate` naming the offending token and its offset.
    mutating func parse() throws -> ParsedPredicate {
        let node = try parseOr()
        guard case .end = current.kind else { throw error("unexpected '\(current.text)' after a complete predicate") }
        return ParsedPredicate(format: predicate, node: node, slots: slots)
    }

    // MARK: - Predicates

    private mutating func parseOr() throws -> PredicateNode {
        var terms = [try parseAnd()]
        while isKeyword("OR") || isSymbol("||") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws -> PredicateNode {
        var terms = [try parseNot()]
        while isKeyword("AND") || isSymbol("&&") {
            advance()
            terms.append(try parseNot())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseNot() throws -> PredicateNode {
        if isKeyword("NOT") || isSymbol("!") {
            try enterNesting()
            advance()
            let inner = try parseNot()
            depth -= 1
            return .not(inner)
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> PredicateNode {
        if isSymbol("(") {
            try enterNesting()
            advance()
            let inner = try parseOr()
            try expectSymbol(")", "to close the parenthesis")
            depth -= 1
            return inner
        }
        if isKeyword("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if isKeyword("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        if case .end = current.kind { throw error("the predicate ends where a comparison was expected") }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws -> PredicateComparison {
        var quantifier: PredicateQuantifier?
        if isKeyword("ANY") || isKeyword("SOME") {
            quantifier = .anyElement
        } else if isKeyword("ALL") {
            quantifier = .allElements
        } else if isKeyword("NONE") {
            quantifier = .noElement
        }
        if quantifier != nil { advance() }

        let left = try parseExpression()
        let operatorToken = current
        let op = try parseOperator()
        let options = try parseOptions()
        let right = try parseExpression()

        // An argument's bounds (`BETWEEN %@`) are checked when the arguments are bound.
        if op == .between {
            switch right {
            case .list(let bounds) where bounds.count == 2: break
            case .argument: break
            default: throw error("BETWEEN needs two bounds, as in 'age BETWEEN {18, 65}'", at: operatorToken)
            }
        }
        if !options.isEmpty, op == .between {
            throw error("[c] and [d] apply only to string comparisons, not '\(operatorToken.text)'", at: operatorToken)
        }
        return PredicateComparison(
            quantifier: quantifier, left: left, op: op, options: options, right: right, offset: operatorToken.offset)
    }

    private mutating func parseOperator() throws -> ComparisonOperator {
        let token = current
        switch token.kind {
        case .symbol(let symbol):
            let op: ComparisonOperator? =
                switch symbol {
                case "==", "=": .equal
                case "!=", "<>": .notEqual
                case "<": .less
                case "<=", "=<": .lessOrEqual
                case ">": .greater
                case ">=", "=>": .greaterOrEqual
                default: nil
                }
            guard let op else { throw error("expected a comparison operator, found '\(token.text)'") }
            advance()
            return op
        case .identifier(let word):
            let operators: [String: ComparisonOperator] = [
                "BEGINSWITH": .beginsWith, "ENDSWITH": .endsWith, "CONTAINS": .contains, "LIKE": .like,
                "IN": .in, "BETWEEN": .between, "TEXT": .text,
            ]
            guard let op = operators[word.uppercased()] else {
                if word.uppercased() == "MATCHES" {
                    throw error("MATCHES (regular expressions) is not supported; use LIKE with * and ?")
                }
                let suggestion = Self.closest(to: word.uppercased(), in: Array(operators.keys))
                    .map { " (did you mean '\($0)'?)" } ?? ""
                throw error("expected a comparison operator, found '\(word)'\(suggestion)")
            }
            advance()
            return op
        default:
            throw error("expected a comparison operator, found '\(token.text)'")
        }
    }

    private mutating func parseOptions() throws -> StringComparisonOptions {
        guard isSymbol("[") else { return [] }
        let open = current
        advance()
        guard case .identifier(let letters) = current.kind else {
            throw error("expected c, d or cd inside the brackets", at: open)
        }
        var options: StringComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw error("unknown comparison option '\(letter)'; use [c], [d] or [cd]")
            }
        }
        advance()
        try expectSymbol("]", "to close the comparison options")
        return options
    }

    // MARK: - Expressions

    private mutating func parseExpression() throws -> PredicateOperand {
        let token = current
        switch token.kind {
        case .string(let value):
            advance()
            return .value(.string(value))
        case .integer(let value):
            advance()
            return .value(.int(value))
        case .double(let value):
            advance()
            return .value(.double(value))
        case .argument(let letter):
            advance()
            let slot = ArgumentSlot(index: slots.count, letter: letter, offset: token.offset)
            slots.append(slot)
            // `%K.name`, `%K.%K`: a key path that starts with a placeholder.
            guard letter == "K", isSymbol(".") else { return .argument(slot) }
            return try parseKeyPathTail(root: .object, parts: [.argument(slot)], start: token)
        case .symbol("("):
            // A parenthesised constant or key path, `intObj = (null)`; a parenthesised predicate is read by
            // `parsePrimary` before it gets here.
            try enterNesting()
            advance()
            let inner = try parseExpression()
            try expectSymbol(")", "to close the parenthesis")
            depth -= 1
            return inner
        case .variable(let name):
            advance()
            return try parseKeyPathTail(root: .variable(name), parts: [], start: token)
        case .symbol("{"):
            return try parseList()
        case .identifier(let word):
            if ["OID", "DECIMAL"].contains(word.uppercased()), position + 1 < tokens.count,
                case .symbol("(") = tokens[position + 1].kind
            {
                return try parseTypedLiteral(word.uppercased())
            }
            switch word.uppercased() {
            case "NIL", "NULL":
                advance()
                return .value(.null)
            case "TRUE", "YES":
                advance()
                return .value(.bool(true))
            case "FALSE", "NO":
                advance()
                return .value(.bool(false))
            case "SUBQUERY":
                return try parseSubquery()
            case "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE":
                throw error("expected a property name or a value, found the keyword '\(word)'")
            default:
                advance()
                return try parseKeyPathTail(root: .object, parts: [.name(word)], start: token)
            }
        default:
            throw error("expected a property name or a value, found '\(token.text)'")
        }
    }

    /// Reads `oid(507f1f77bcf86cd799439011)` (an ObjectId) or `decimal(10.25)` (an exact decimal), the word being
    /// the current token; the text inside may also be quoted.
    private mutating func parseTypedLiteral(_ word: String) throws -> PredicateOperand {
        let start = current
        advance()  // the word
        advance()  // (
        var text = ""
        while !isSymbol(")") {
            switch current.kind {
            case .end: throw error("expected ')' to close \(start.text)(…)", at: current)
            case .string(let quoted): text += quoted
            default: text += current.text
            }
            advance()
        }
        advance()  // )
        if word == "OID" {
            guard let id = ObjectId(text) else {
                throw error("'\(text)' is not an ObjectId: write 24 hexadecimal digits, as in oid(507f1f77bcf86cd799439011)",
                            at: start)
            }
            return .value(.objectId(id))
        }
        guard DecimalSyntax.isValid(text), let decimal = Decimal(string: text) else {
            throw error("'\(text)' is not a decimal number, as in decimal(10.25)", at: start)
        }
        return .value(.decimal(decimal))
    }

    /// Reads `.name`, `.%K`, `.@count`, `.@sum.name`, and a map's `['key']`, `.@allKeys` and `.@allValues`, after
    /// the first component.
    private mutating func parseKeyPathTail(
        root: KeyPathRoot, parts: [KeyPathPart], start: PredicateToken
    ) throws -> PredicateOperand {
        var parts = parts
        while isSymbol(".") || isSymbol("[") {
            if isSymbol("[") {
                advance()
                guard case .string(let key) = current.kind else {
                    throw error("expected a quoted map key inside the brackets, as in scores['math']")
                }
                advance()
                try expectSymbol("]", "to close the map key")
                parts.append(.name(MapPathComponent.subscripted(key)))
                continue
            }
            advance()
            switch current.kind {
            case .identifier(let name):
                parts.append(.name(name))
                advance()
            case .argument("K"):
                let slot = ArgumentSlot(index: slots.count, letter: "K", offset: current.offset)
                slots.append(slot)
                parts.append(.argument(slot))
                advance()
            case .aggregate(let name) where name.lowercased() == "allkeys" || name.lowercased() == "allvalues":
                parts.append(.name(name.lowercased() == "allkeys" ? MapPathComponent.allKeys : MapPathComponent.allValues))
                advance()
            case .aggregate(let name):
                let aggregateToken = current
                advance()
                guard let function = AggregateFunction(rawValue: name.lowercased()) else {
                    throw error("unknown collection operator '@\(name)'; use @count, @sum, @avg, @min, @max, "
                                + "@allKeys or @allValues",
                                at: aggregateToken)
                }
                guard let components = Self.names(parts) else {
                    throw error("a %K placeholder cannot name the list of @\(name); write the list's name",
                                at: aggregateToken)
                }
                var property: [String] = []
                while isSymbol(".") {
                    advance()
                    guard case .identifier(let name) = current.kind else {
                        throw error("expected a property name after '.'")
                    }
                    property.append(name)
                    advance()
                }
                if function == .count, !property.isEmpty {
                    throw error("@count takes no property", at: aggregateToken)
                }
                return .aggregate(
                    root: root, collection: components, function: function, property: property,
                    offset: start.offset)
            default:
                throw error("expected a property name after '.', found '\(current.text)'")
            }
        }
        guard let components = Self.names(parts) else {
            return .keyPathTemplate(root: root, parts: parts, offset: start.offset)
        }
        return .keyPath(root: root, components: components, offset: start.offset)
    }

    /// The parts' names when none is a placeholder.
    private static func names(_ parts: [KeyPathPart]) -> [String]? {
        var names: [String] = []
        names.reserveCapacity(parts.count)
        for part in parts {
            guard case .name(let name) = part else { return nil }
            names.append(name)
        }
        return names
    }

    private mutating func parseList() throws -> PredicateOperand {
        try enterNesting()
        defer { depth -= 1 }
        advance()  // {
        var items: [PredicateOperand] = []
        if !isSymbol("}") {
            repeat {
                if isSymbol(",") { advance() }
                items.append(try parseExpression())
            } while isSymbol(",")
        }
        try expectSymbol("}", "to close the list")
        return .list(items)
    }

    private mutating func parseSubquery() throws -> PredicateOperand {
        try enterNesting()
        defer { depth -= 1 }
        let start = current
        advance()
        try expectSymbol("(", "after SUBQUERY")
        // The list is a property of the tested object, or of an enclosing SUBQUERY's variable.
        let root: KeyPathRoot
        var components: [String] = []
        switch current.kind {
        case .identifier(let first):
            root = .object
            components = [first]
        case .variable(let name):
            root = .variable(name)
        default:
            throw error("SUBQUERY's first argument must be a list property")
        }
        advance()
        guard case .keyPath(root, let collection, _) = try parseKeyPathTail(
            root: root, parts: components.map(KeyPathPart.name), start: start), !collection.isEmpty
        else {
            throw error("SUBQUERY's first argument must be a list property", at: start)
        }
        try expectSymbol(",", "after SUBQUERY's list")
        guard case .variable(let variable) = current.kind else {
            throw error("SUBQUERY's second argument must be a variable such as $item")
        }
        advance()
        try expectSymbol(",", "after SUBQUERY's variable")
        let inner = try parseOr()
        try expectSymbol(")", "to close SUBQUERY")
        try expectSymbol(".", "after SUBQUERY(…): only SUBQUERY(…).@count is supported")
        guard case .aggregate(let name) = current.kind, name.lowercased() == "count" else {
            throw error("only SUBQUERY(…).@count is supported")
        }
        advance()
        return .subqueryCount(
            root: root, collection: collection, variable: variable, predicate: inner, offset: start.offset)
    }

    // MARK: - Token plumbing

    /// Counts one more level of nesting for the current token (`(`, `NOT`, `{` or `SUBQUERY`), refusing it past
    /// ``maximumDepth``; the caller takes the level back (`depth -= 1`) once the nested part is parsed.
    private mutating func enterNesting() throws {
        guard depth < Self.maximumDepth else {
            throw error(
                "'\(current.text)' nests the predicate more than \(Self.maximumDepth) levels deep (parentheses, NOT, "
                    + "lists and SUBQUERYs count together); write it flatter, for example as one chain of AND or OR")
        }
        depth += 1
    }

    private var current: PredicateToken { tokens[min(position, tokens.count - 1)] }

    private mutating func advance() { position += 1 }

    private func isKeyword(_ keyword: String) -> Bool {
        if case .identifier(let word) = current.kind { return word.uppercased() == keyword }
        return false
    }

    private func isSymbol(_ symbol: String) -> Bool {
        if case .symbol(let found) = current.kind { return found == symbol }
        return false
    }

    private mutating func expectSymbol(_ symbol: String, _ purpose: String) throws {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' \(purpose), found '\(current.text)'") }
        advance()
    }

    private func error(_ message: String, at token: PredicateToken? = nil) -> StrataError {
        .invalidPredicate(predicate: predicate, offset: (token ?? current).offset, message: message)
    }

    /// The candidate within two edits of `word`, if any.
    static func closest(to word: String, in candidates: [String]) -> String? {
        candidates
            .map { ($0, editDistance(word, $0)) }
            .filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }?.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}

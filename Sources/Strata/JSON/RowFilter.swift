#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// A predicate of the query language evaluated on stored rows from the file's own description of its tables,
/// with no generated code: what `strata export --filter` selects objects with.
///
/// It takes comparisons of a property, or of a path of to-one links ending in one (`home.city`), with constants:
/// `==`, `!=`, `<`, `<=`, `>`, `>=`, `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` (with `[c]` and `[d]`), `IN`
/// and `BETWEEN`, joined with `AND`, `OR` and `NOT`. The rest of the language (collections, aggregates,
/// subqueries, arguments) needs an app's schema: it is refused with a message saying so.
package struct RowFilter {
    private let predicate: String
    private let node: PredicateNode
    private let catalog: Catalog

    /// Parses `predicate` for the objects of the tables of `catalog`.
    ///
    /// - Throws: `StrataError.invalidPredicate` for a syntax error or a construct the filter does not take.
    package init(_ predicate: String, catalog: Catalog) throws {
        let parsed = try ParsedPredicate(parsing: predicate)
        if let slot = parsed.slots.first {
            throw StrataError.invalidPredicate(
                predicate: predicate, offset: slot.offset, message: "a filter on the command line takes no arguments")
        }
        self.predicate = predicate
        self.node = parsed.node
        self.catalog = catalog
    }

    /// Whether object `key` of `table` matches.
    package func matches(_ key: ObjectKey, of table: Table) throws -> Bool {
        try evaluate(node, key, table)
    }

    private func evaluate(_ node: PredicateNode, _ key: ObjectKey, _ table: Table) throws -> Bool {
        switch node {
        case .constant(let value): return value
        case .not(let inner): return try !evaluate(inner, key, table)
        case .and(let nodes):
            for inner in nodes where try !evaluate(inner, key, table) { return false }
            return true
        case .or(let nodes):
            for inner in nodes where try evaluate(inner, key, table) { return true }
            return false
        case .comparison(let comparison): return try compare(comparison, key, table)
        }
    }

    private func refuse(_ offset: Int, _ message: String) -> StrataError {
        StrataError.invalidPredicate(predicate: predicate, offset: offset, message: message)
    }

    private func compare(_ comparison: PredicateComparison, _ key: ObjectKey, _ table: Table) throws -> Bool {
        let unsupported = "strata export --filter compares a property (or a path of to-one links) with a constant"
        guard comparison.quantifier == nil, case .keyPath(.object, let components, let offset) = comparison.left else {
            throw refuse(comparison.offset, unsupported)
        }
        let stored = try value(at: components, offset: offset, key, table)
        let constants: [QueryValue]
        switch comparison.right {
        case .value(.list(let values)): constants = values
        case .value(let value): constants = [value]
        case .list(let items):
            constants = try items.map { item in
                guard case .value(let value) = item else { throw refuse(comparison.offset, unsupported) }
                return value
            }
        default: throw refuse(comparison.offset, unsupported)
        }
        let options = comparison.options
        switch comparison.op {
        case .in: return constants.contains { order(stored, $0, options) == 0 }
        case .between:
            guard constants.count == 2 else { throw refuse(comparison.offset, "BETWEEN takes {low, high}") }
            guard let low = order(stored, constants[0], options), let high = order(stored, constants[1], options) else {
                return false
            }
            return low >= 0 && high <= 0
        case .text: throw refuse(comparison.offset, "full-text search needs the app's schema; " + unsupported)
        default: break
        }
        guard constants.count == 1, let constant = constants.first else { throw refuse(comparison.offset, unsupported) }
        switch comparison.op {
        case .equal: return order(stored, constant, options) == 0
        case .notEqual: return order(stored, constant, options) != 0
        case .less: return order(stored, constant, options).map { $0 < 0 } ?? false
        case .lessOrEqual: return order(stored, constant, options).map { $0 <= 0 } ?? false
        case .greater: return order(stored, constant, options).map { $0 > 0 } ?? false
        case .greaterOrEqual: return order(stored, constant, options).map { $0 >= 0 } ?? false
        case .beginsWith, .endsWith, .contains, .like:
            guard case .string(let text) = stored, case .string(let pattern) = constant else { return false }
            let (folded, foldedPattern) = (fold(text, options), fold(pattern, options))
            switch comparison.op {
            case .beginsWith: return folded.hasPrefix(foldedPattern)
            case .endsWith: return folded.hasSuffix(foldedPattern)
            case .contains: return foldedPattern.isEmpty || folded.contains(foldedPattern)
            default: return Self.like(Array(folded), Array(foldedPattern))
            }
        case .in, .between, .text: return false
        }
    }

    /// The value at `components` from object `key` of `table`, following to-one links; `.null` past a nil link.
    private func value(at components: [String], offset: Int, _ key: ObjectKey, _ table: Table) throws -> StorageValue {
        var table = table
        var key = key
        for (index, name) in components.enumerated() {
            guard let spec = table.column(named: name), spec.type != .backlinks else {
                throw refuse(offset, "\(table.name) has no property '\(name)'")
            }
            let stored = try table.value(key, column: spec.key)
            if index == components.count - 1 {
                guard case .value = spec.type else { throw refuse(offset, "'\(name)' is a collection; compare a value") }
                return stored
            }
            guard case .value(.link) = spec.type, let target = spec.target.flatMap(catalog.table) else {
                throw refuse(offset, "'\(name)' is not a to-one link, so the path cannot go on from it")
            }
            guard case .link(let linked) = stored else { return .null }
            table = target
            key = linked
        }
        return .null
    }

    /// How `stored` orders against `constant`: negative, zero or positive; `nil` when they do not compare (other
    /// kinds, or null against a value).
    private func order(_ stored: StorageValue, _ constant: QueryValue, _ options: StringComparisonOptions) -> Int? {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (stored, constant) {
        case (.null, .null): return 0
        case (.null, _), (_, .null): return nil
        case (.string(let a), .string(let b)): return sign(fold(a, options), fold(b, options))
        case (.bool(let a), .bool(let b)): return a == b ? 0 : nil
        case (.uuid(let a), .uuid(let b)): return a == b ? 0 : nil
        case (.uuid(let a), .string(let b)): return a.uuidString == b.uppercased() ? 0 : nil
        case (.objectId(let a), .objectId(let b)): return sign(a, b)
        case (.binary(let a), .data(let b)): return a == Array(b) ? 0 : nil
        case (.timestamp(let a), .date(let b)): return sign(a, ValueConversion.timestamp(b))
        case (.decimal(let a), .decimal(let b)): return sign(a, b)
        case (.decimal(let a), .int(let b)): return sign(a, Decimal(b))
        default:
            guard let a = Self.number(stored), let b = Self.number(constant) else { return nil }
            return sign(a, b)
        }
    }

    private static func number(_ value: StorageValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .float(let number): return Double(number)
        case .double(let number): return number
        case .decimal(let number): return Double("\(number)")
        default: return nil
        }
    }

    private static func number(_ value: QueryValue) -> Double? {
        switch value {
        case .int(let number): return Double(number)
        case .double(let number): return number
        case .decimal(let number): return Double("\(number)")
        default: return nil
        }
    }

    private func fold(_ text: String, _ options: StringComparisonOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? text : text.folding(options: folding, locale: nil)
    }

    /// `LIKE`: `*` matches any run of characters, `?` one character.
    private static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        var textIndex = 0
        var patternIndex = 0
        var starPattern = -1
        var starText = 0
        while textIndex < text.count {
            if patternIndex < pattern.count, pattern[patternIndex] == "?" || pattern[patternIndex] == text[textIndex] {
                textIndex += 1
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == "*" {
                starPattern = patternIndex
                starText = textIndex
                patternIndex += 1
            } else if starPattern >= 0 {
                patternIndex = starPattern + 1
                starText += 1
                textIndex = starText
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "*" { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}

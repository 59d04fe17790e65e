import Foundation
import StrataStorage

/// The order a sorted page shows values in: nulls first, then numbers by value, strings by Unicode scalar order,
/// dates, UUIDs, decimals and object ids by their own order; values of different kinds (in a mixed column) by
/// kind.
enum ValueOrder {
    /// Whether `left` comes before `right`.
    static func precedes(_ left: StorageValue, _ right: StorageValue) -> Bool {
        compare(left, right) < 0
    }

    /// Negative, zero or positive as `left` orders before, with or after `right`.
    static func compare(_ left: StorageValue, _ right: StorageValue) -> Int {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (left, right) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.int(let a), .int(let b)): return sign(a, b)
        case (.bool(let a), .bool(let b)): return sign(a ? 1 : 0, b ? 1 : 0)
        case (.string(let a), .string(let b)):
            if a == b { return 0 }
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
        case (.timestamp(let a), .timestamp(let b)): return sign(a, b)
        case (.uuid(let a), .uuid(let b)): return sign(a.uuidString, b.uuidString)
        case (.decimal(let a), .decimal(let b)): return sign(a, b)
        case (.objectId(let a), .objectId(let b)): return sign(a, b)
        case (.link(let a), .link(let b)): return sign(a, b)
        case (.binary(let a), .binary(let b)): return a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
        default:
            if let a = number(left), let b = number(right) { return sign(a, b) }
            return sign(rank(left), rank(right))
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

    private static func rank(_ value: StorageValue) -> Int {
        switch value {
        case .null: return 0
        case .bool: return 1
        case .int, .float, .double, .decimal: return 2
        case .timestamp: return 3
        case .string: return 4
        case .binary: return 5
        case .uuid: return 6
        case .objectId: return 7
        case .link: return 8
        // Typed links, collections and kinds added later order after every scalar.
        default: return 9
        }
    }
}

import StrataSchema
import StrataStorage

/// The lossless conversions of docs/SCHEMA.md's migration table, value by value: `int*→double`, `float→double`,
/// `T→T?`, `T?→T` with nils becoming the default (integer widths share one store type, so widening them needs
/// no conversion at all).
struct ColumnConversion {
    /// The property's type before the step.
    let from: PropertyType
    /// Its type after the step.
    let to: PropertyType
    /// What a nil becomes when the new type is not optional.
    let replacementForNil: StorageValue?

    /// Whether a list becomes a set (`[T]` to `set<T>`), which keeps one of each element.
    var dropsDuplicates: Bool {
        if case .list = from, case .set = to { return true }
        return false
    }

    /// Whether the stored column must change: its type or its nullability differs.
    var changesColumn: Bool { from.storesDifferently(from: to) }

    /// `value` in the new type.
    ///
    /// - Throws: A description of the value that does not fit (the caller names the object and property).
    func convert(_ value: StorageValue) throws -> StorageValue {
        switch value {
        case .null:
            if to.isOptional || isList(to) { return .null }
            guard let replacementForNil else {
                throw ConversionFailure(
                    detail: "it holds nil and \(to.schemaSpelling) has no default to replace nils with")
            }
            return replacementForNil
        case .list(let elements):
            // A list becoming a set keeps one of each element: the set column drops the repeats when written.
            return .list(try elements.map { try convertElement($0) })
        case .map(let entries):
            return .map(try entries.mapValues { try convertElement($0) })
        default:
            return try convertElement(value)
        }
    }

    private func convertElement(_ value: StorageValue) throws -> StorageValue {
        guard let kind = elementType(to).valueKind else { return value }
        switch (value, kind) {
        case (.int(let number), .double): return .double(Double(number))
        case (.float(let number), .double): return .double(Double(number))
        case (.null, _): return .null
        case (_, .mixed): return value  // a mixed value holds any kind (an `[any]` list becoming a `set<any>`)
        default:
            guard value.kind == kind else {
                throw ConversionFailure(
                    detail: "\(value) cannot become a \(elementType(to).schemaSpelling) without losing information")
            }
            return value
        }
    }

    private func elementType(_ type: PropertyType) -> PropertyType {
        type.collectionElement?.unwrapped ?? type.unwrapped
    }

    /// Whether `type` is a list, set or map (never nil itself).
    private func isList(_ type: PropertyType) -> Bool {
        type.collectionElement != nil
    }
}

/// Why one value could not be converted.
struct ConversionFailure: Error {
    let detail: String
}

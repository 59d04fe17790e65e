import StrataSchema

/// Which type changes the runtime performs by itself (docs/SCHEMA.md's migration table) and which need app code.
enum TypeConversion: Equatable {
    /// The types are the same: nothing to do.
    case unchanged
    /// Every old value has an equal new value (`int8→…→int64`, `int`↔`int64`, `float→double`,
    /// `int*→double`,
    /// `T→T?`, an enum gaining cases, an enum becoming a string, and the same for list elements).
    case lossless
    /// `T?→T` (possibly widened): nils need the property's default.
    case unwrapping
    /// `[T]→set<T>` (possibly widened): the list's repeated elements are dropped.
    case droppingDuplicates
    /// Anything else: old values cannot be carried over without app code.
    case needsCustomCode

    /// Classifies the change from `old` to `new`; `old` must already use the new version's model names.
    static func classify(from old: PropertyType, to new: PropertyType) -> TypeConversion {
        if old == new { return .unchanged }
        if isLossless(from: old, to: new) { return .lossless }
        if case .list(let from) = old, case .set(let to) = new, from == to || isLossless(from: from, to: to) {
            return .droppingDuplicates
        }
        if case .optional(let wrapped) = old, !new.isOptional, wrapped == new || isLossless(from: wrapped, to: new) {
            return .unwrapping
        }
        return .needsCustomCode
    }

    /// Whether every value of `old` is a value of `new`.
    static func isLossless(from old: PropertyType, to new: PropertyType) -> Bool {
        switch (old, new) {
        case _ where old == new:
            return true
        case (.integer(let from), .integer(let to)):
            return to.bits >= from.bits
        case (.integer, .double), (.float, .double):
            return true
        case (.enumeration(let from), .enumeration(let to)):
            return Set(from).isSubset(of: Set(to))
        case (.enumeration, .string):
            return true
        case (.optional(let from), .optional(let to)):
            return isLossless(from: from, to: to)
        case (_, .optional(let to)):
            return !old.isOptional && !old.isListOrLinkingObjects && isLossless(from: old, to: to)
        case (.list(let from), .list(let to)), (.set(let from), .set(let to)), (.map(let from), .map(let to)):
            return isLossless(from: from, to: to)
        default:
            return false
        }
    }

    /// `old` with every model name replaced through `renames` (old name → new name), so that a link to a renamed
    /// model compares equal to the same link in the new version.
    static func renamingModels(in old: PropertyType, _ renames: [String: String]) -> PropertyType {
        switch old {
        case .link(let model): return .link(renames[model] ?? model)
        case .optional(let wrapped): return .optional(renamingModels(in: wrapped, renames))
        case .list(let element): return .list(renamingModels(in: element, renames))
        case .set(let element): return .set(renamingModels(in: element, renames))
        case .map(let element): return .map(renamingModels(in: element, renames))
        case .linkingObjects(let model, let property):
            return .linkingObjects(model: renames[model] ?? model, property: property)
        default: return old
        }
    }
}

private extension PropertyType {
    var isListOrLinkingObjects: Bool {
        switch self {
        case .list, .linkingObjects, .set, .map: return true
        default: return false
        }
    }
}

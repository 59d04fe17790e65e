#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// The conversions between a collection's elements and the store's values, shared by the stores of lists, sets
/// and maps (``RowList``, ``RowSet``, ``RowMap``): one place per element kind, so a new kind that conforms to
/// ``ListElement`` is a list, set and map element with no code here.
extension ObjectRow {
    /// The stored form of `element` for column `column`: a primitive as is, an object as a link (the row says
    /// which objects it links), or as a typed link (table and key) in a mixed (`any`) collection.
    func storedElement<Element: ListElement>(_ element: Element, column: Int) throws -> StorageValue {
        let value = element.persistedValue
        if case .object(let object) = value {
            guard isMixed(column) else { return .link(try linkKey(to: object, column: column)) }
            guard let linked = object as? Object else {
                throw unstorable("an embedded object cannot be stored in the mixed collection \(describe(column))")
            }
            return try mixedLink(to: linked, column: column)
        }
        guard let stored = ValueConversion.storageValue(value) else {
            throw unstorable("a value of type \(Element.self) cannot be stored in \(describe(column))")
        }
        return stored
    }

    /// The element `value` of column `column` stands for, or `nil` (reported) when it is not one.
    func element<Element: ListElement>(from value: StorageValue, column: Int, as type: Element.Type) -> Element? {
        let persisted: PersistedValue
        if case .link(let key) = value,
            let object = linkedObject(column, key: key, as: Element.self as? ObjectBase.Type)
        {
            persisted = .object(object)
        } else if case .typedLink(let table, let key) = value {
            persisted = mixedObject(table: table, key: key).map { .object($0) } ?? .null
        } else {
            persisted = ValueConversion.persistedValue(value)
        }
        guard let element = Element.fromPersistedValue(persisted) else {
            reportMismatch("\(describe(column)) holds \(value), not a \(Element.self)", in: column)
            return nil
        }
        return element
    }

    /// What an element that could not be read stands in as, when the row carries on after a failure (a migration
    /// records it and is abandoned, but the app's code is running and needs some element now, and a damaged file
    /// must not crash it).
    func placeholderElement<Element: ListElement>(column: Int, as type: Element.Type) -> Element {
        let zeros: [PersistedValue] = [
            .null, .int(0), .bool(false), .float(0), .double(0), .string(""), .data(Data()),
            .date(ValueConversion.date(0)), .uuid(Self.zeroUUID), .decimal(0), .objectId(.zero),
        ]
        for zero in zeros {
            if let element = Element.fromPersistedValue(zero) { return element }
        }
        if let nowhere = linkedObject(column, key: ObjectKey(-1), as: Element.self as? ObjectBase.Type),
            let element = Element.fromPersistedValue(.object(nowhere))
        {
            return element
        }
        // Every ListElement is one of the kinds above; a new kind must be added there.
        fatalError("Strata: \(Element.self) has no placeholder value for an element that could not be read")
    }
}

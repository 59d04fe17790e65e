import StrataStorage

/// What makes two elements of an unmanaged ``MutableSet`` the same: equal stored values, or, for objects, the same
/// stored object (or the same instance while unmanaged). Written over ``ListElement/persistedValue``, so every
/// element kind has it with no code per kind.
struct ElementIdentity: Equatable {
    /// A primitive in the store's terms, or a managed object's link.
    private let value: StorageValue
    /// The model of a managed object.
    private let model: String?
    /// An unmanaged object's instance.
    private let instance: ObjectIdentifier?

    init<Element: ListElement>(_ element: Element) {
        let persisted = element.persistedValue
        guard case .object(let object) = persisted else {
            value = ValueConversion.storageValue(persisted) ?? .null
            model = nil
            instance = nil
            return
        }
        if let row = object.managedAccessor as? any ObjectRow {
            value = .link(row.key)
            model = row.layout.name
            instance = nil
        } else {
            value = .null
            model = nil
            instance = ObjectIdentifier(object)
        }
    }
}

import StrataSchema

/// Models or properties by name, looked up in constant time.
///
/// Validation and diffing ask "is there a model (property) named X?" once per model (property, link, rename);
/// `SchemaVersion.model(named:)` and `ModelDefinition.property(named:)` scan the whole list, which made checking a
/// schema of thousands of models or properties quadratic. Like those scans, the first element of a name wins
/// (a later one is a duplicate the loader already reported).
struct NameLookup<Element> {
    private let byName: [String: Element]

    /// Indexes `elements` by `name`.
    init(_ elements: [Element], name: (Element) -> String) {
        var byName: [String: Element] = [:]
        byName.reserveCapacity(elements.count)
        for element in elements where byName[name(element)] == nil {
            byName[name(element)] = element
        }
        self.byName = byName
    }

    /// The first element named `name`.
    subscript(name: String) -> Element? { byName[name] }

    /// Whether an element is named `name`.
    func contains(_ name: String) -> Bool { byName[name] != nil }
}

extension NameLookup where Element == ModelDefinition {
    /// The models of `version`.
    init(modelsOf version: SchemaVersion) {
        self.init(version.models, name: \.name)
    }
}

extension NameLookup where Element == PropertyDefinition {
    /// The properties of `model`.
    init(propertiesOf model: ModelDefinition) {
        self.init(model.properties, name: \.name)
    }
}

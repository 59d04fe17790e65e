#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataSchema
import StrataStorage

extension Database {
    /// Every object of `type` as a JSON array, in the form its snapshots' `Codable` conformance writes
    /// (docs/VALUES.md, "The JSON form"), read straight from the store.
    ///
    /// - Parameter pretty: Indent the text (two spaces, one member per line).
    public func exportJSON<Element: Object>(_ type: Element.Type, pretty: Bool = false) throws -> Data {
        try exportJSON(objects(type), pretty: pretty)
    }

    /// The objects `results` selects now, in its order, as a JSON array (see `exportJSON(_:pretty:)`).
    public func exportJSON<Element: Object>(_ results: Results<Element>, pretty: Bool = false) throws -> Data {
        try withAccess("exporting \(Element.self) as JSON") {
            let keys = results.keys
            return try storageRead {
                let catalog = try catalog()
                let table = try table(for: results.model)
                var text = JSONText(pretty: pretty)
                try RowJSONWriter(catalog: catalog).writeArray(keys, of: table, into: &text)
                return Data(text.bytes)
            }
        }
    }

    /// Imports the objects of a JSON array (the form `exportJSON(_:pretty:)` writes) into `type`, in one
    /// write transaction of its own; returns how many it imported.
    ///
    /// An object whose primary key is stored already is updated (the properties it names are written, the
    /// others keep their values); any other is added, the properties it does not name taking their defaults.
    /// Links name stored objects by primary key (or stable key); embedded objects are given in full.
    ///
    /// - Throws: ``JSONImportError`` naming the JSON path of the first bad value (`$[3].home.city: expected a
    ///   string, found 12`); nothing of the import is kept. `StrataError.transactionMisuse` when called inside a
    ///   write.
    @discardableResult
    public func importJSON<Element: Object>(_ data: Data, into type: Element.Type) throws -> Int {
        guard !isInWriteTransaction else {
            throw StrataError.transactionMisuse(
                "importJSON(_:into:) runs in a write transaction of its own; call it outside write {}")
        }
        guard let model = schema.model(for: type) else {
            throw StrataError.invalidArgument("\(type) is not a model of this database")
        }
        var schemaTypes: [String: [String: PropertyType]] = [:]
        for binding in schema.models {
            schemaTypes[binding.name] = Dictionary(
                binding.description.properties.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        }
        // Parsed as it is imported (no document tree), inside the write that keeps all of it or nothing.
        return try write {
            try RowJSONReader(catalog: try catalog(), schemaTypes: schemaTypes)
                .importObjects(json: Array(data), into: try table(for: model))
        }
    }
}

import StrataSchema
import StrataStorage

/// Imports a JSON array of objects into one table as it parses the text: what `Database.importJSON(_:into:)`
/// runs, in the write transaction that keeps everything or nothing.
///
/// No document tree and no per-object dictionary is built: each member is parsed and converted straight into its
/// column's slot of one reused row (members of a primitive kind without a path string, which is only worked out
/// for an error), and a new object goes to the table's bulk insert (`Table.insert(_:into:)`, its column positions
/// worked out once for objects naming the same columns). Nested values (embedded objects, collections, links,
/// mixed values) are parsed as values and converted as ``RowJSONReader`` converts them. The rules are
/// ``RowJSONReader``'s: an object whose primary key is stored already is updated, any other inserted, and a bad
/// value throws a ``JSONImportError`` naming its JSON path. A syntax error after a bad value is not reached: the
/// first problem in the text is the one reported.
struct RowJSONImport {
    private let reader: RowJSONReader
    private let table: Table
    /// The columns an object may name (backlinks are computed), in the table's order.
    private let specs: [ColumnSpec]
    private let columns: [ColumnKey]
    /// Each column's position in `specs`, by property name.
    private let positions: [String: Int]
    /// The schema's type of each column, when the caller has the schema (see ``RowJSONReader``).
    private let schemaTypes: [PropertyType?]
    /// The primary key's position, if the model has one.
    private let primaryPosition: Int?
    /// Whether the primary key is an integer, which may be an `auto` one.
    private let integerKey: Bool

    /// An import into `table` through `reader`; `schemaTypes` are the schema's types of its properties by name.
    init(reader: RowJSONReader, table: Table, schemaTypes: [String: PropertyType]?) {
        self.reader = reader
        self.table = table
        let specs = table.columns.filter { $0.type != .backlinks }
        self.specs = specs
        columns = specs.map(\.key)
        positions = Dictionary(specs.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.schemaTypes = specs.map { schemaTypes?[$0.name] }
        let primaryPosition = table.primaryKey.flatMap { key in specs.firstIndex { $0.key == key } }
        self.primaryPosition = primaryPosition
        integerKey = primaryPosition.map { specs[$0].type == .value(.int) } ?? false
    }

    /// Imports every object of the JSON array `parser` reads; returns how many.
    ///
    /// - Throws: ``JSONImportError`` naming the path of the first bad value, or the line and column of a syntax
    ///   error.
    func run(_ parser: inout JSONParser) throws -> Int {
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "[") else {
            let document = try parser.parse()
            throw JSONImportError(path: "$", message: "expected an array of \(table.name) objects, found \(document.found)")
        }
        _ = parser.consume(UInt8(ascii: "["))
        var count = 0
        var slots = [StorageValue?](repeating: nil, count: specs.count)
        parser.skipWhitespace()
        if !parser.consume(UInt8(ascii: "]")) {
            repeat {
                try importObject(&parser, index: count, slots: &slots)
                count += 1
                parser.skipWhitespace()
            } while parser.consume(UInt8(ascii: ","))
            guard parser.consume(UInt8(ascii: "]")) else { throw parser.syntax("expected ',' or ']' in an array") }
        }
        try parser.finish()
        return count
    }

    /// Parses element `index` of the array into `slots` and stores it.
    private func importObject(_ parser: inout JSONParser, index: Int, slots: inout [StorageValue?]) throws {
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            let json = try parser.parseValue()
            throw JSONImportError(path: "$[\(index)]", message: "expected a \(table.name) object, found \(json.found)")
        }
        _ = parser.consume(UInt8(ascii: "{"))
        for position in slots.indices { slots[position] = nil }
        var named = 0
        parser.skipWhitespace()
        if !parser.consume(UInt8(ascii: "}")) {
            repeat {
                parser.skipWhitespace()
                guard parser.peek() == UInt8(ascii: "\"") else { throw parser.syntax("expected a member name in quotes") }
                let name = try parser.parseString()
                parser.skipWhitespace()
                guard parser.consume(UInt8(ascii: ":")) else {
                    throw parser.syntax("expected ':' after the member name \"\(name)\"")
                }
                let json = try parser.parseValue()
                guard let position = positions[name] else {
                    throw JSONImportError(
                        path: "$[\(index)].\(name)", message: "\(table.name) has no property '\(name)'"
                            + Suggestion.didYouMean(name, among: specs.map(\.name)))
                }
                guard slots[position] == nil else {
                    throw JSONImportError(path: "$[\(index)].\(name)", message: "the member '\(name)' appears twice")
                }
                slots[position] = try value(json, at: position) { "$[\(index)].\(name)" }
                named += 1
                parser.skipWhitespace()
            } while parser.consume(UInt8(ascii: ","))
            guard parser.consume(UInt8(ascii: "}")) else { throw parser.syntax("expected ',' or '}' in an object") }
        }
        try store(&slots, named: named) { "$[\(index)]" }
    }

    /// Member `json` as column `position` stores it.
    private func value(_ json: JSONValue, at position: Int, path: () -> String) throws -> StorageValue {
        let spec = specs[position]
        if case .value(let kind) = spec.type, kind != .link, kind != .mixed {
            return try reader.primitive(
                json, kind: kind, nullable: spec.isNullable, schemaType: schemaTypes[position], path: path)
        }
        return try reader.convert(json, for: spec, of: table, path: path())
    }

    /// Updates the stored object with the row's primary key, or inserts the row (`named` of its slots are set).
    private func store(_ slots: inout [StorageValue?], named: Int, path: () -> String) throws {
        do {
            let primaryValue = primaryPosition.flatMap { slots[$0] }
            if let primaryValue, let existing = try table.find(primaryKey: primaryValue) {
                for (position, value) in slots.enumerated() where position != primaryPosition {
                    guard let value else { continue }
                    let column = columns[position]
                    if try table.value(existing, column: column) != value { try table.set(existing, column: column, to: value) }
                }
                return
            }
            var named = named
            if integerKey, let primaryPosition {
                // An integer key may be an `auto` one: a missing key takes the model's next integer, and a given
                // one moves the sequence past it, as `add` does.
                if case .int(let explicit)? = primaryValue {
                    try table.raiseSequence(ModelBinding.primaryKeySequence, toAtLeast: explicit)
                } else if primaryValue == nil {
                    slots[primaryPosition] = .int(try table.nextSequenceValue(ModelBinding.primaryKeySequence))
                    named += 1
                }
            }
            if named == slots.count {
                try table.insert(slots.map { $0 ?? .null }, into: columns)
                return
            }
            var values: [StorageValue] = []
            var namedColumns: [ColumnKey] = []
            for (position, value) in slots.enumerated() {
                guard let value else { continue }
                values.append(value)
                namedColumns.append(columns[position])
            }
            try table.insert(values, into: namedColumns)
        } catch let error as JSONImportError {
            throw error
        } catch {
            throw JSONImportError(path: path(), message: "\(error)")
        }
    }
}

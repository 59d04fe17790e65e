import Strata
import StrataStorage

/// Reads CSV in the form ``CSVText`` writes (RFC 4180, a header row of property names) back into the JSON form
/// the import takes, from the types of the table's columns: a number, boolean or link cell becomes that JSON
/// value, a string, date, data, UUID, decimal or object id cell a JSON string, and a list, set, map, mixed or
/// embedded cell is parsed as the JSON text it holds. An empty cell is null for an optional property and an
/// empty string for a string property (CSV cannot tell them apart; docs/STUDIO.md says so).
package struct CSVReader {
    private let bytes: [UInt8]

    /// A reader of `bytes` (UTF-8).
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The rows as a JSON array of objects for `table`.
    ///
    /// - Throws: `JSONImportError` naming the row and column of a cell that is not what its property holds, or a
    ///   header naming no property.
    package func objects(for table: Table, catalog: Catalog) throws -> JSONValue {
        let rows = try records()
        guard let header = rows.first else { return .array([]) }
        var specs: [ColumnSpec] = []
        for (index, name) in header.enumerated() {
            guard let spec = table.column(named: name), spec.type != .backlinks else {
                throw JSONImportError(
                    path: "row 1, column \(index + 1)", message: "\(table.name) has no property '\(name)'")
            }
            specs.append(spec)
        }
        var objects: [JSONValue] = []
        for (rowIndex, row) in rows.dropFirst().enumerated() {
            if row == [""] { continue }
            guard row.count == specs.count else {
                throw JSONImportError(
                    path: "row \(rowIndex + 2)", message: "has \(row.count) cells; the header has \(specs.count)")
            }
            var members: [(key: String, value: JSONValue)] = []
            for (spec, cell) in zip(specs, row) {
                let path = "row \(rowIndex + 2), \(spec.name)"
                members.append((spec.name, try json(cell, for: spec, in: catalog, path: path)))
            }
            objects.append(.object(members))
        }
        return .array(objects)
    }

    private func json(_ cell: String, for spec: ColumnSpec, in catalog: Catalog, path: String) throws -> JSONValue {
        guard case .value(let kind) = spec.type else { return try parsed(cell, path: path) }
        if cell.isEmpty, kind != .string || spec.isNullable { return .null }
        switch kind {
        case .int, .float, .double: return .number(cell)
        case .bool:
            guard cell == "true" || cell == "false" else {
                throw JSONImportError(path: path, message: "expected true or false, found \"\(cell)\"")
            }
            return .bool(cell == "true")
        case .link:
            let target = spec.target.flatMap(catalog.table)
            if target?.isEmbedded ?? false { return try parsed(cell, path: path) }
            let keyColumn = target?.primaryKey.flatMap { target?.column($0) }
            if keyColumn == nil || keyColumn?.type == .value(.int) { return .number(cell) }
            return .string(cell)
        case .mixed: return try parsed(cell, path: path)
        default: return .string(cell)
        }
    }

    private func parsed(_ cell: String, path: String) throws -> JSONValue {
        if cell.isEmpty { return .null }
        var parser = JSONParser(Array(cell.utf8))
        do {
            return try parser.parse()
        } catch {
            throw JSONImportError(path: path, message: "expected JSON text in the cell: \(error)")
        }
    }

    /// The records: cells split on commas outside quotes, lines on CRLF or LF.
    private func records() throws -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell: [UInt8] = []
        var quoted = false
        var index = 0
        func endCell() {
            row.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        cell.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") && cell.isEmpty {
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                endCell()
            } else if byte == 0x0A || byte == 0x0D {
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                endCell()
                rows.append(row)
                row = []
            } else {
                cell.append(byte)
            }
            index += 1
        }
        if quoted { throw JSONImportError(path: "row \(rows.count + 1)", message: "a quoted cell is not closed") }
        if !cell.isEmpty || !row.isEmpty {
            endCell()
            rows.append(row)
        }
        return rows
    }
}

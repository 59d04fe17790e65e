import Strata

/// Writes objects as CSV (RFC 4180): a header row of property names, then one row per object, lines ending in
/// CRLF. A cell holds the value's JSON form without quotes for a string (docs/VALUES.md): numbers and booleans as
/// written, dates, data, decimals, UUIDs and `ObjectId`s as their text, a link as the linked object's key, and a
/// list, set, map, mixed value or embedded object as JSON text. A null is an empty cell (so is an empty string).
/// A cell holding a comma, a quote, a CR or an LF is quoted, its quotes doubled.
package struct CSVText {
    /// The text so far, UTF-8.
    package private(set) var bytes: [UInt8] = []

    /// An empty text.
    package init() {}

    /// Appends one row.
    package mutating func row(_ cells: [String]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(cell)
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }

    /// The cell text of a value's JSON form.
    package static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text), .string(let text): return text
        case .array, .object:
            var text = JSONText()
            text.append(value)
            return String(decoding: text.bytes, as: UTF8.self)
        }
    }

    private mutating func append(_ cell: String) {
        let needsQuotes = cell.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
        }
        guard needsQuotes else {
            bytes.append(contentsOf: cell.utf8)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in cell.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

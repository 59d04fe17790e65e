/// Reads a ``SchemaRecord`` from the JSON that ``SchemaRecord/write(to:)`` stores, without `JSONDecoder`.
///
/// Every open reads the record, and `JSONDecoder`'s first use in a process costs more than the rest of opening a
/// large file (it instantiates its generic machinery and looks up protocol conformances at run time). The record
/// is a small fixed shape: an object with `fingerprints` (an object of strings), `schema` (a string) and
/// `version` (an integer). This reader accepts exactly that shape, with any key order and whitespace; it returns
/// `nil` for anything else (an extra key, another value type, malformed text), and the caller then falls back to
/// `JSONDecoder`, which accepts any valid encoding of the record and explains what is wrong with an invalid one.
struct SchemaRecordReader {
    private let bytes: [UInt8]
    private var position = 0

    /// A reader over the stored bytes.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The record, or `nil` when the bytes are not in the shape the writer produces.
    mutating func record() -> SchemaRecord? {
        var schema: String?
        var version: Int?
        var fingerprints: [String: String]?
        var deleteRules: [String: String]?
        guard consume(UInt8(ascii: "{")) else { return nil }
        if consume(UInt8(ascii: "}")) { return nil }
        repeat {
            guard let key = string(), consume(UInt8(ascii: ":")) else { return nil }
            switch key {
            case "schema" where schema == nil:
                guard let value = string() else { return nil }
                schema = value
            case "version" where version == nil:
                guard let value = integer() else { return nil }
                version = value
            case "fingerprints" where fingerprints == nil:
                guard let value = stringObject() else { return nil }
                fingerprints = value
            case "deleteRules" where deleteRules == nil:
                guard let value = stringObject() else { return nil }
                deleteRules = value
            default:
                return nil
            }
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")), atEnd(), let schema, let version, let fingerprints else { return nil }
        return SchemaRecord(schema: schema, version: version, fingerprints: fingerprints, deleteRules: deleteRules)
    }

    /// An object whose values are all strings (`{}` included); `nil` for a repeated key, as JSONDecoder would
    /// have to pick one of them.
    private mutating func stringObject() -> [String: String]? {
        guard consume(UInt8(ascii: "{")) else { return nil }
        var object: [String: String] = [:]
        if consume(UInt8(ascii: "}")) { return object }
        repeat {
            guard let key = string(), consume(UInt8(ascii: ":")), let value = string(), object[key] == nil else {
                return nil
            }
            object[key] = value
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}")) ? object : nil
    }

    /// A decimal integer without fraction or exponent, in `Int`'s range.
    private mutating func integer() -> Int? {
        skipWhitespace()
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let start = position
        var value = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            let digit = Int(bytes[position] - UInt8(ascii: "0"))
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
            position += 1
        }
        let digits = position - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return value
    }

    /// A string without escapes (the record's names and fingerprints have none); `nil` for one with escapes,
    /// control characters or invalid UTF-8, which the fallback decodes or rejects.
    private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = bytes[start..<position]
                position += 1
                // `String(decoding:)` repairs invalid UTF-8; a repaired string has other bytes, so it is refused.
                let decoded = String(decoding: text, as: UTF8.self)
                return decoded.utf8.elementsEqual(text) ? decoded : nil
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            position += 1
        }
        return nil
    }

    /// Skips whitespace, then consumes `byte` if it comes next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func atEnd() -> Bool {
        skipWhitespace()
        return position == bytes.count
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }
}

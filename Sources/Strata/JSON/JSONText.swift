/// Writes JSON text into a byte buffer: the one writer behind `Database.exportJSON` and `strata export`.
package struct JSONText {
    /// The text so far, UTF-8.
    package var bytes: [UInt8] = []
    /// Whether to indent (two spaces per level, one member or element per line).
    private let pretty: Bool
    private var depth = 0

    /// An empty text.
    package init(pretty: Bool = false) {
        self.pretty = pretty
    }

    /// Appends `value`.
    package mutating func append(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .number(let text): raw(text)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for (index, element) in elements.enumerated() {
                separator(index)
                append(element)
            }
            endArray(empty: elements.isEmpty)
        case .object(let members):
            beginObject()
            for (index, member) in members.enumerated() {
                key(member.key, index)
                append(member.value)
            }
            endObject(empty: members.isEmpty)
        }
    }

    /// `[`
    package mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        depth += 1
    }

    /// `]` (on its own line when pretty and the array had elements).
    package mutating func endArray(empty: Bool) {
        depth -= 1
        if pretty, !empty { newline() }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `{`
    package mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
    }

    /// `}` (on its own line when pretty and the object had members).
    package mutating func endObject(empty: Bool) {
        depth -= 1
        if pretty, !empty { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The comma before element `index` of an array (none before the first), and its line when pretty.
    package mutating func separator(_ index: Int) {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
    }

    /// The member name of member `index` of an object, with its separator and colon.
    package mutating func key(_ name: String, _ index: Int) {
        separator(index)
        string(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
    }

    /// A string, quoted and escaped.
    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                raw("\\u00")
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Text appended as it is.
    package mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func newline() {
        bytes.append(0x0A)
        for _ in 0..<depth { raw("  ") }
    }
}

/// A wire type that reads and writes its own JSON with ``WireJSONReader`` and ``WireJSONWriter``: the same JSON
/// as its `Codable` conformance (the same keys, optional fields left out when `nil`), at a fraction of the cost.
/// The client and the server both use it for request and answer bodies, so the two sides share one
/// implementation.
public protocol WireJSONCodable {
    /// Reads the value at the reader's position.
    init(wireJSON reader: inout WireJSONReader) throws
    /// Writes the value.
    func write(wireJSON writer: inout WireJSONWriter)
}

extension WireJSONCodable {
    /// Decodes JSON bytes (a whole body).
    /// - Throws: ``WireJSONError`` naming what is wrong and where.
    public init<Bytes: Sequence<UInt8>>(wireJSON bytes: Bytes) throws {
        self = try WireJSONReader.read(bytes) { try Self(wireJSON: &$0) }
    }

    /// The value's JSON.
    public var wireJSON: [UInt8] {
        var writer = WireJSONWriter()
        write(wireJSON: &writer)
        return writer.bytes
    }
}

/// A field a wire type needs and the JSON lacks.
func missing(_ field: String, in type: String, _ reader: WireJSONReader) -> WireJSONError {
    reader.error("\(type) needs '\(field)'")
}

extension SyncChange: WireJSONCodable {
    /// Reads a change.
    public init(wireJSON reader: inout WireJSONReader) throws {
        var seq: Int64?
        var hlc: String?
        var model: String?
        var object: SyncValue?
        var op: SyncOperation?
        var property: String?
        var value: SyncValue?
        var element: String?
        var position: String?
        var key: String?
        try reader.object { reader, name in
            switch name {
            case "seq": seq = try reader.int64()
            case "hlc": hlc = try reader.string()
            case "model": model = try reader.string()
            case "object": object = try reader.value()
            case "op":
                let text = try reader.string()
                guard let parsed = SyncOperation(rawValue: text) else { throw reader.error("unknown op '\(text)'") }
                op = parsed
            case "property": property = try reader.optionalString()
            // A `null` value is no value, as `decodeIfPresent` reads it.
            case "value": value = reader.null() ? nil : try reader.value()
            case "element": element = try reader.optionalString()
            case "position": position = try reader.optionalString()
            case "key": key = try reader.optionalString()
            default: try reader.skip()
            }
        }
        guard let seq else { throw missing("seq", in: "a change", reader) }
        guard let hlc else { throw missing("hlc", in: "a change", reader) }
        guard let model else { throw missing("model", in: "a change", reader) }
        guard let object else { throw missing("object", in: "a change", reader) }
        guard let op else { throw missing("op", in: "a change", reader) }
        self.init(
            seq: seq, hlc: hlc, model: model, object: object, op: op, property: property, value: value,
            element: element, position: position, key: key)
    }

    /// Writes the change.
    public func write(wireJSON writer: inout WireJSONWriter) {
        writer.object { writer in
            writer.member("seq", seq)
            writer.member("hlc", hlc)
            writer.member("model", model)
            writer.member("object", object)
            writer.member("op", op.rawValue)
            writer.member("property", property)
            writer.member("value", value)
            writer.member("element", element)
            writer.member("position", position)
            writer.member("key", key)
        }
    }
}

extension ServerChange: WireJSONCodable {
    /// Reads a log entry.
    public init(wireJSON reader: inout WireJSONReader) throws {
        var serverSeq: Int64?
        var clientId: String?
        var change: SyncChange?
        try reader.object { reader, name in
            switch name {
            case "serverSeq": serverSeq = try reader.int64()
            case "clientId": clientId = try reader.string()
            case "change": change = try SyncChange(wireJSON: &reader)
            default: try reader.skip()
            }
        }
        guard let serverSeq else { throw missing("serverSeq", in: "a log entry", reader) }
        guard let clientId else { throw missing("clientId", in: "a log entry", reader) }
        guard let change else { throw missing("change", in: "a log entry", reader) }
        self.init(serverSeq: serverSeq, clientId: clientId, change: change)
    }

    /// Writes the log entry.
    public func write(wireJSON writer: inout WireJSONWriter) {
        writer.object { writer in
            writer.member("serverSeq", serverSeq)
            writer.member("clientId", clientId)
            writer.key("change")
            change.write(wireJSON: &writer)
        }
    }
}

extension DownloadResponse: WireJSONCodable {
    /// Reads a download answer.
    public init(wireJSON reader: inout WireJSONReader) throws {
        var changes: [ServerChange]?
        var last: Int64?
        var more: Bool?
        try reader.object { reader, name in
            switch name {
            case "changes": changes = try reader.array(of: { try ServerChange(wireJSON: &$0) })
            case "last": last = try reader.int64()
            case "more": more = try reader.bool()
            default: try reader.skip()
            }
        }
        guard let changes else { throw missing("changes", in: "a download answer", reader) }
        guard let last else { throw missing("last", in: "a download answer", reader) }
        guard let more else { throw missing("more", in: "a download answer", reader) }
        self.init(changes: changes, last: last, more: more)
    }

    /// Writes the download answer.
    public func write(wireJSON writer: inout WireJSONWriter) {
        writer.object { writer in
            writer.key("changes")
            writer.array { writer in
                for change in changes { change.write(wireJSON: &writer) }
            }
            writer.member("last", last)
            writer.key("more")
            writer.bool(more)
        }
    }
}

extension UploadRequest: WireJSONCodable {
    /// Reads an upload batch.
    public init(wireJSON reader: inout WireJSONReader) throws {
        var clientId: String?
        var changes: [SyncChange]?
        var after: Int64?
        try reader.object { reader, name in
            switch name {
            case "clientId": clientId = try reader.string()
            case "changes": changes = try reader.array(of: { try SyncChange(wireJSON: &$0) })
            case "after": after = reader.null() ? nil : try reader.int64()
            default: try reader.skip()
            }
        }
        guard let clientId else { throw missing("clientId", in: "an upload batch", reader) }
        guard let changes else { throw missing("changes", in: "an upload batch", reader) }
        self.init(clientId: clientId, changes: changes, after: after)
    }

    /// Writes the upload batch.
    public func write(wireJSON writer: inout WireJSONWriter) {
        writer.object { writer in
            writer.member("clientId", clientId)
            if let after { writer.member("after", after) }
            writer.key("changes")
            writer.array { writer in
                for change in changes { change.write(wireJSON: &writer) }
            }
        }
    }
}

extension UploadResponse: WireJSONCodable {
    /// Reads an upload answer.
    public init(wireJSON reader: inout WireJSONReader) throws {
        var acknowledged: Int64?
        var accepted: Int64?
        var duplicates: Int64?
        var serverSeq: Int64?
        var keepsOrder = false
        try reader.object { reader, name in
            switch name {
            case "acknowledged": acknowledged = try reader.int64()
            case "accepted": accepted = try reader.int64()
            case "duplicates": duplicates = try reader.int64()
            case "serverSeq": serverSeq = try reader.int64()
            case "keepsOrder": keepsOrder = try reader.bool()
            default: try reader.skip()
            }
        }
        guard let acknowledged else { throw missing("acknowledged", in: "an upload answer", reader) }
        guard let accepted else { throw missing("accepted", in: "an upload answer", reader) }
        guard let duplicates else { throw missing("duplicates", in: "an upload answer", reader) }
        guard let serverSeq else { throw missing("serverSeq", in: "an upload answer", reader) }
        self.init(
            acknowledged: acknowledged, accepted: Int(accepted), duplicates: Int(duplicates), serverSeq: serverSeq,
            keepsOrder: keepsOrder)
    }

    /// Writes the upload answer.
    public func write(wireJSON writer: inout WireJSONWriter) {
        writer.object { writer in
            writer.member("acknowledged", acknowledged)
            writer.member("accepted", Int64(accepted))
            writer.member("duplicates", Int64(duplicates))
            writer.member("serverSeq", serverSeq)
            // Left out when false, as an earlier server's answer reads.
            if keepsOrder {
                writer.key("keepsOrder")
                writer.bool(true)
            }
        }
    }
}

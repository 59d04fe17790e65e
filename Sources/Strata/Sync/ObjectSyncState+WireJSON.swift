internal import StrataSyncWire

/// The JSON of an object's sync state in `~sync objects` (docs/FILE-FORMAT.md, "Sync metadata"), read and written
/// with the wire types' reader and writer instead of `JSONDecoder`/`JSONEncoder`: the same keys as the `Codable`
/// conformance (so files written either way read the same), at a fraction of the cost of a page's applies.
extension ObjectSyncState {
    /// Reads a state's JSON.
    init(stateJSON text: String) throws {
        var text = text
        self = try text.withUTF8 { bytes in try WireJSONReader.read(bytes) { try ObjectSyncState(reading: &$0) } }
    }

    /// The state's JSON.
    var stateJSON: String {
        var writer = WireJSONWriter()
        write(to: &writer)
        return writer.text
    }

    private init(reading reader: inout WireJSONReader) throws {
        self.init()
        var state = self
        try reader.object { reader, name in
            switch name {
            case "created": state.created = try reader.optionalString()
            case "deleted": state.deleted = try reader.optionalString()
            case "fields": state.fields = try Self.registers(&reader)
            case "sets": state.sets = try Self.registerGroups(&reader)
            case "maps": state.maps = try Self.registerGroups(&reader)
            case "serverLists": state.serverLists = try Self.lists(&reader)
            case "local": state.local = reader.null() ? nil : try reader.int64()
            case "lists": state.lists = try Self.lists(&reader)
            default: try reader.skip()
            }
        }
        self = state
    }

    private func write(to writer: inout WireJSONWriter) {
        writer.object { writer in
            writer.member("created", created)
            writer.member("deleted", deleted)
            writer.key("fields")
            Self.write(fields, to: &writer)
            writer.key("sets")
            Self.write(groups: sets, to: &writer)
            writer.key("maps")
            Self.write(groups: maps, to: &writer)
            writer.key("serverLists")
            Self.write(lists: serverLists, to: &writer)
            if let local { writer.member("local", local) }
            writer.key("lists")
            Self.write(lists: lists, to: &writer)
        }
    }

    // MARK: Registers

    private static func register(_ reader: inout WireJSONReader) throws -> Register {
        var hlc: String?
        var removed: Bool?
        var value: SyncValue?
        try reader.object { reader, name in
            switch name {
            case "hlc": hlc = try reader.string()
            case "removed": removed = try reader.bool()
            // `null` is no value, as `decodeIfPresent` reads it.
            case "value": value = reader.null() ? nil : try reader.value()
            default: try reader.skip()
            }
        }
        guard let hlc, let removed else { throw reader.error("a sync register needs 'hlc' and 'removed'") }
        return Register(hlc: hlc, removed: removed, value: value)
    }

    private static func registers(_ reader: inout WireJSONReader) throws -> [String: Register] {
        var registers: [String: Register] = [:]
        try reader.object { reader, name in registers[name] = try register(&reader) }
        return registers
    }

    private static func registerGroups(_ reader: inout WireJSONReader) throws -> [String: [String: Register]] {
        var groups: [String: [String: Register]] = [:]
        try reader.object { reader, name in groups[name] = try registers(&reader) }
        return groups
    }

    private static func write(_ registers: [String: Register], to writer: inout WireJSONWriter) {
        writer.object { writer in
            for (name, register) in registers {
                writer.key(name)
                writer.object { writer in
                    writer.member("hlc", register.hlc)
                    writer.key("removed")
                    writer.bool(register.removed)
                    writer.member("value", register.value)
                }
            }
        }
    }

    private static func write(groups: [String: [String: Register]], to writer: inout WireJSONWriter) {
        writer.object { writer in
            for (name, registers) in groups {
                writer.key(name)
                write(registers, to: &writer)
            }
        }
    }

    // MARK: Lists

    private static func list(_ reader: inout WireJSONReader) throws -> ListState {
        var list = ListState()
        try reader.object { reader, name in
            switch name {
            case "slots": list.slots = try reader.array(of: slot)
            case "removed": list.removed = Set(try reader.array(of: { try $0.string() }))
            default: try reader.skip()
            }
        }
        return list
    }

    private static func slot(_ reader: inout WireJSONReader) throws -> Slot {
        var id: String?
        var position: String?
        var value = SyncValue.null
        try reader.object { reader, name in
            switch name {
            case "id": id = try reader.string()
            case "position": position = try reader.string()
            case "value": value = try reader.value()
            default: try reader.skip()
            }
        }
        guard let id, let position else { throw reader.error("a list slot needs 'id' and 'position'") }
        return Slot(id: id, position: position, value: value)
    }

    private static func lists(_ reader: inout WireJSONReader) throws -> [String: ListState] {
        var lists: [String: ListState] = [:]
        try reader.object { reader, name in lists[name] = try list(&reader) }
        return lists
    }

    private static func write(lists: [String: ListState], to writer: inout WireJSONWriter) {
        writer.object { writer in
            for (name, list) in lists {
                writer.key(name)
                writer.object { writer in
                    writer.key("slots")
                    writer.array { writer in
                        for slot in list.slots {
                            writer.object { writer in
                                writer.member("id", slot.id)
                                writer.member("position", slot.position)
                                writer.key("value")
                                writer.value(slot.value)
                            }
                        }
                    }
                    writer.key("removed")
                    writer.array { writer in
                        for id in list.removed.sorted() { writer.string(id) }
                    }
                }
            }
        }
    }
}

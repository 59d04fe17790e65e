/// Checks one uploaded change against the schema before anything is written: the model, the object key, the
/// clock reading, the operation's fields and every value's type.
struct ChangeValidator {
    /// The schema the tables follow.
    let schema: SyncSchema
    /// The uploading client, whose id every clock reading must carry.
    let clientID: String

    /// Validates `change`, the `index`th of its batch.
    /// - Throws: `SyncError.badRequest` naming the change and what is wrong with it.
    func validate(_ change: SyncChange, index: Int) throws -> ValidatedChange {
        // The label is only written when the change is refused.
        func fail(_ message: String) -> SyncError {
            let label = "change \(index) (seq \(change.seq), \(change.model) \(change.object.canonicalText))"
            return SyncError(.badRequest, "\(label): \(message)")
        }
        guard let table = schema.table(change.model) else { throw fail("the schema has no model \(change.model)") }
        guard let hlc = HybridTimestamp(change.hlc) else {
            throw fail("hlc '\(change.hlc)' is not WWWWWWWWWWWWWWWW-CCCCCCCCCC-clientId")
        }
        guard hlc.clientID == clientID else {
            throw fail("hlc '\(change.hlc)' names client \(hlc.clientID), not the uploading client \(clientID)")
        }
        let key: String
        do {
            guard let parameter = try table.keyType.parameter(change.object, context: "\(change.model)'s key") else {
                throw fail("the object key is null")
            }
            key = parameter
        } catch let error as SyncError {
            throw fail(error.message)
        }
        var validated = ValidatedChange(
            change: change, index: index, table: table, key: key, hlc: hlc, values: [], collection: nil,
            elementParameter: nil)
        do {
            try fill(&validated)
        } catch let error as SyncError {
            throw fail(error.message)
        }
        return validated
    }

    private func fill(_ validated: inout ValidatedChange) throws {
        let change = validated.change
        let table = validated.table
        switch change.op {
        case .create:
            guard case .object(let values) = change.value ?? .object([:]) else {
                throw SyncError(.badRequest, "create takes an object of property values as 'value'")
            }
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                if name == table.keyColumn {
                    let given = try table.keyType.parameter(value, context: "\(table.model).\(name)")
                    guard given == validated.key else {
                        throw SyncError(.badRequest, "the primary key \(name) in the values differs from 'object'")
                    }
                    continue
                }
                guard let type = table.column(named: name) else {
                    throw SyncError(.badRequest, "\(table.model) has no scalar property \(name)")
                }
                validated.values.append((name, type, try type.parameter(value, context: "\(table.model).\(name)")))
            }
        case .delete:
            break
        case .set:
            let name = try property(of: change)
            guard let type = table.column(named: name) else {
                throw SyncError(.badRequest, "\(table.model) has no scalar property \(name)")
            }
            // A missing value is JSON null, which decoding an optional field cannot tell apart.
            let value = change.value ?? .null
            validated.values = [(name, type, try type.parameter(value, context: "\(table.model).\(name)"))]
        case .listInsert, .listRemove, .setAdd, .setRemove, .mapSet, .mapRemove:
            let name = try property(of: change)
            let kind: CollectionTable.Kind =
                switch change.op {
                case .listInsert, .listRemove: .list
                case .setAdd, .setRemove: .set
                default: .map
                }
            guard let collection = table.collection(named: name), collection.kind == kind else {
                throw SyncError(.badRequest, "\(table.model) has no \(kind.rawValue) property \(name)")
            }
            validated.collection = collection
            if kind == .list, change.element?.isEmpty ?? true {
                throw SyncError(.badRequest, "\(change.op.rawValue) needs 'element', the list element's id")
            }
            if change.op == .listInsert, change.position?.isEmpty ?? true {
                throw SyncError(.badRequest, "listInsert needs 'position', the element's position identifier")
            }
            if kind == .map, change.key == nil {
                throw SyncError(.badRequest, "\(change.op.rawValue) needs 'key', the map key")
            }
            if ([.listInsert, .setAdd, .setRemove, .mapSet] as [SyncOperation]).contains(change.op) {
                validated.elementParameter = try collection.element.parameter(
                    change.value ?? .null, context: "an element of \(table.model).\(name)")
            }
        }
    }

    private func property(of change: SyncChange) throws -> String {
        guard let name = change.property, !name.isEmpty else {
            throw SyncError(.badRequest, "\(change.op.rawValue) needs 'property'")
        }
        return name
    }
}

/// The statements that write the plans of one group of upload batches (`BatchPlanner`, `UploadTransaction`): a few
/// for the whole group, each taking its rows as one `ParameterRows` parameter, in this order:
///
/// 1. the deletes the upserts must follow: the readings of objects starting a new life, and the rows and
///    collection rows of deleted objects (only when the batch has such objects);
/// 2. one statement (`CombinedStatement`) for the object states, the clock readings, every model's row upserts
///    (one per set of columns written), the clients' records and the staged change log entries, which touch
///    different rows;
/// 3. per collection table the element deletes and writes (only when the batch has elements).
///
/// The number of statements depends on the models and properties the batch touches, not on its length; a batch of
/// creates and sets is one statement (which `UploadTransaction` then sends without a transaction block).
struct BatchWriter {
    /// The server's tables.
    let meta: MetaTables

    /// A client's record the group leaves: its id, user and highest change number applied.
    struct ClientRecord {
        var clientID: String
        var user: String
        var acknowledged: Int64
    }

    /// The statements that write every plan and the clients' records (one each), with the writes `statement` already
    /// holds (the staged change log entries) in the combined one; to be run in order, in one transaction.
    func statements(_ plans: [ObjectPlan], clients: [ClientRecord], alongside statement: CombinedStatement)
        -> [SQLStatement]
    {
        var out: [SQLStatement] = []
        var byModel: [String: [ObjectPlan]] = [:]
        for plan in plans { byModel[plan.table.model, default: []].append(plan) }
        let models = byModel.sorted(by: { $0.key < $1.key }).compactMap { _, plans in
            plans.first.map { (table: $0.table, plans: plans) }
        }
        clearVersions(plans.filter(\.versionsCleared), into: &out)
        for model in models { clear(model.plans.filter(\.rowCleared), table: model.table, into: &out) }
        var statement = statement
        addStates(plans.filter(\.stateChanged), to: &statement)
        addVersions(plans, to: &statement)
        for model in models {
            addRows(
                model.plans.filter { $0.isAlive && ($0.ensureRow || !$0.columns.isEmpty) }, table: model.table,
                to: &statement)
        }
        addClients(clients, to: &statement)
        if let combined = statement.statement { out.append(combined) }
        for model in models {
            for collection in model.table.collections {
                writeElements(model.plans.filter(\.isAlive), collection: collection, table: model.table, into: &out)
            }
        }
        return out
    }

    private func table(_ name: String) -> String { SQLName.qualified(meta.schema, name) }

    private func column(_ index: Int) -> String { ParameterRows.column(index) }

    /// Upserts the clients' records, one row each (one `INSERT ... ON CONFLICT` may not touch a row twice).
    private func addClients(_ clients: [ClientRecord], to statement: inout CombinedStatement) {
        guard !clients.isEmpty else { return }
        var rows = ParameterRows()
        for client in clients { rows.append([client.clientID, client.user, String(client.acknowledged)]) }
        let parameter = statement.bind(rows.parameter)
        statement.add(
            """
            INSERT INTO \(meta.clients) (client_id, user_id, last_seq)
            SELECT \(column(0)), \(column(1)), \(column(2))::bigint FROM \(ParameterRows.source(parameter))
            ON CONFLICT (client_id) DO UPDATE SET last_seq = EXCLUDED.last_seq
            """)
    }

    private func addStates(_ plans: [ObjectPlan], to statement: inout CombinedStatement) {
        var rows = ParameterRows()
        for plan in plans {
            guard let state = plan.state else { continue }
            rows.append([plan.table.model, plan.key, state.ownerID, state.created, state.deleted])
        }
        guard !rows.isEmpty else { return }
        let parameter = statement.bind(rows.parameter)
        statement.add(
            """
            INSERT INTO \(meta.objects) (model, object_key, owner_id, created_hlc, deleted_hlc)
            SELECT \((0..<5).map(column).joined(separator: ", ")) FROM \(ParameterRows.source(parameter))
            ON CONFLICT (model, object_key) DO UPDATE SET owner_id = EXCLUDED.owner_id,
                created_hlc = EXCLUDED.created_hlc, deleted_hlc = EXCLUDED.deleted_hlc
            """)
    }

    /// Drops every reading of the objects that start a new life (before the batch's readings are written).
    private func clearVersions(_ plans: [ObjectPlan], into out: inout [SQLStatement]) {
        guard !plans.isEmpty else { return }
        var cleared = ParameterRows()
        for plan in plans { cleared.append([plan.table.model, plan.key]) }
        out.append(
            SQLStatement(
                text: """
                    DELETE FROM \(meta.versions) AS v USING \(ParameterRows.source(1))
                    WHERE v.model = \(column(0)) AND v.object_key = \(column(1))
                    """, parameters: [cleared.parameter]))
    }

    private func addVersions(_ plans: [ObjectPlan], to statement: inout CombinedStatement) {
        var written = ParameterRows()
        for plan in plans {
            for field in plan.changedFields.sorted() {
                guard let version = plan.versions[field] else { continue }
                written.append([plan.table.model, plan.key, field, version.hlc, version.removed ? "true" : "false"])
            }
        }
        guard !written.isEmpty else { return }
        let parameter = statement.bind(written.parameter)
        statement.add(
            """
            INSERT INTO \(meta.versions) (model, object_key, field, hlc, removed)
            SELECT \(column(0)), \(column(1)), \(column(2)), \(column(3)), \(column(4))::boolean
            FROM \(ParameterRows.source(parameter))
            ON CONFLICT (model, object_key, field) DO UPDATE SET hlc = EXCLUDED.hlc, removed = EXCLUDED.removed
            """)
    }

    /// Deletes the rows and collection rows of objects the batch deleted.
    private func clear(_ plans: [ObjectPlan], table: ModelTable, into out: inout [SQLStatement]) {
        guard !plans.isEmpty else { return }
        var keys = ParameterRows()
        for plan in plans { keys.append([plan.key]) }
        let key = table.keyType.cast(column(0))
        for collection in table.collections {
            out.append(
                SQLStatement(
                    text: """
                        DELETE FROM \(self.table(collection.tableName)) AS t USING \(ParameterRows.source(1))
                        WHERE t.owner = \(key)
                        """, parameters: [keys.parameter]))
        }
        out.append(
            SQLStatement(
                text: """
                    DELETE FROM \(self.table(table.model)) AS t USING \(ParameterRows.source(1))
                    WHERE t.\(SQLName.quoted(table.keyColumn)) = \(key)
                    """, parameters: [keys.parameter]))
    }

    /// Inserts missing rows and writes the winning scalar values: one upsert per set of columns written (each
    /// object is in one set, so the upserts touch different rows).
    private func addRows(_ plans: [ObjectPlan], table: ModelTable, to statement: inout CombinedStatement) {
        var groups: [[String]: [ObjectPlan]] = [:]
        for plan in plans { groups[plan.columns.keys.sorted(), default: []].append(plan) }
        for (names, group) in groups.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var rows = ParameterRows()
            for plan in group { rows.append([plan.key] + names.map { plan.columns[$0]?.parameter ?? nil }) }
            let types = names.compactMap { name in group.first?.columns[name]?.type }
            let columns = ([table.keyColumn] + names).map(SQLName.quoted).joined(separator: ", ")
            let values = ([table.keyType] + types).enumerated().map { $1.cast(column($0)) }.joined(separator: ", ")
            let conflict =
                names.isEmpty
                ? "DO NOTHING"
                : "DO UPDATE SET "
                    + names.map { "\(SQLName.quoted($0)) = EXCLUDED.\(SQLName.quoted($0))" }
                    .joined(separator: ", ")
            let parameter = statement.bind(rows.parameter)
            statement.add(
                """
                INSERT INTO \(self.table(table.model)) (\(columns)) SELECT \(values)
                FROM \(ParameterRows.source(parameter)) ON CONFLICT (\(SQLName.quoted(table.keyColumn))) \(conflict)
                """)
        }
    }

    /// Removes, then inserts or sets, the elements the batch wrote to one collection property.
    private func writeElements(
        _ plans: [ObjectPlan], collection: CollectionTable, table: ModelTable, into out: inout [SQLStatement]
    ) {
        var removed = ParameterRows()
        var put = ParameterRows()
        for plan in plans {
            for (element, write) in (plan.elements[collection.property] ?? [:]).sorted(by: { $0.key < $1.key }) {
                switch write {
                case .remove: removed.append([plan.key, element])
                case .put(let position, let value): put.append([plan.key, element, position, value])
                }
            }
        }
        let name = self.table(collection.tableName)
        let owner = table.keyType.cast(column(0))
        let identity = collection.kind == .map ? "key" : "element"
        if !removed.isEmpty {
            out.append(
                SQLStatement(
                    text: """
                        DELETE FROM \(name) AS t USING \(ParameterRows.source(1))
                        WHERE t.owner = \(owner) AND t.\(identity) = \(column(1))
                        """, parameters: [removed.parameter]))
        }
        guard !put.isEmpty else { return }
        let value = collection.element.cast(column(3))
        let statement: String
        switch collection.kind {
        case .list:
            statement = """
                INSERT INTO \(name) (owner, element, position, value)
                SELECT \(owner), \(column(1)), \(column(2)), \(value) FROM \(ParameterRows.source(1))
                ON CONFLICT DO NOTHING
                """
        case .set:
            statement = """
                INSERT INTO \(name) (owner, element, value) SELECT \(owner), \(column(1)), \(value)
                FROM \(ParameterRows.source(1)) ON CONFLICT DO NOTHING
                """
        case .map:
            statement = """
                INSERT INTO \(name) (owner, key, value) SELECT \(owner), \(column(1)), \(value)
                FROM \(ParameterRows.source(1)) ON CONFLICT (owner, key) DO UPDATE SET value = EXCLUDED.value
                """
        }
        out.append(SQLStatement(text: statement, parameters: [put.parameter]))
    }
}

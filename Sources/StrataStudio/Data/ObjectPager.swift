import Foundation
import Strata
import StrataStorage

/// Answers a ``PageRequest``: the objects of one page of a model, and how they were found (the `explain` the page
/// shows beside the results).
///
/// A filter or a sort runs the app's own query engine over the file's stored schema (``StoredQuery``): the same
/// parser, planner, indexes and column scans as `Results`, so a predicate selects what it selects in the app and
/// a malformed one fails with the same message and offset. The page reads only what it shows wherever it can:
/// - in key order without a filter, the tree's subtree counts find the page's first object in O(log n), so the
///   first page of a million objects costs the same as that of ten;
/// - with a filter in key order, the engine stops once it has the page's objects and one more (which tells
///   whether there are more); the total is counted (by an index or column scans, no key list) only when asked
///   (`count=1`);
/// - sorted, the engine keeps only the page's objects (and one more) in a bounded heap, not a sort of the whole
///   model.
struct ObjectPager {
    let catalog: Catalog

    /// The page as JSON: model, columns, rows, offset, limit, total (or `null` when not counted), objects, more,
    /// explain and the milliseconds the server spent.
    func page(_ request: PageRequest) throws -> JSONValue {
        let started = DispatchTime.now().uptimeNanoseconds
        let table = try ModelLookup.table(request.model, in: catalog)
        let objectCount = try table.count()
        let wanted = request.offset + request.limit
        let keys: [ObjectKey]
        let total: Int?
        let more: Bool
        let explain: String
        if let query = try query(request, table) {
            if request.sort == nil && request.descending {
                // Newest first: the engine's order is the keys', so the page is taken from the end of the matches.
                let all = try query.keys()
                keys = Array(all.reversed().dropFirst(request.offset).prefix(request.limit))
                (total, more) = (all.count, all.count > wanted)
                explain = try query.explain() + ", read from the last match back"
            } else {
                let found = try query.keys(atMost: wanted + 1)
                keys = Array(found.dropFirst(request.offset).prefix(request.limit))
                more = found.count > wanted
                total = !query.isFiltered ? objectCount
                    : request.countAll ? try query.count() : (more ? nil : found.count)
                explain = try query.explain(atMost: wanted + 1)
            }
        } else {
            let end = min(wanted, objectCount)
            keys = request.offset < end
                ? try (request.offset..<end).map { try table.key(at: request.descending ? objectCount - 1 - $0 : $0) }
                : []
            (total, more) = (objectCount, objectCount > wanted)
            explain = "positional read of \(keys.count) objects of \(table.name) (\(objectCount) objects) in "
                + (request.descending ? "descending" : "ascending")
                + " key order: each found in O(log n) through the tree's subtree counts"
        }
        let encoder = RowEncoder(catalog: catalog)
        let columns = RowEncoder.visibleColumns(table)
        let rows = try keys.map { try encoder.row($0, of: table, columns: columns) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        return .object([
            ("model", .string(table.name)),
            ("columns", .array(columns.map { SchemaDescriber(catalog: catalog).column($0, of: table) })),
            ("rows", .array(rows)),
            ("offset", .number(String(request.offset))),
            ("limit", .number(String(request.limit))),
            ("total", total.map { .number(String($0)) } ?? .null),
            ("objects", .number(String(objectCount))),
            ("more", .bool(more)),
            ("explain", .string(explain)),
            ("milliseconds", .number(String(format: "%.2f", elapsed))),
        ])
    }

    /// The keys the request selects, every one of them, in its order: what an export of a query's results writes.
    func allKeys(_ request: PageRequest) throws -> (Table, [ObjectKey]) {
        let table = try ModelLookup.table(request.model, in: catalog)
        guard let query = try query(request, table) else {
            let keys = try table.keys()
            return (table, request.descending ? keys.reversed() : keys)
        }
        let keys = try query.keys()
        return (table, request.sort == nil && request.descending ? keys.reversed() : keys)
    }

    /// The engine's query for a filtered or sorted request; `nil` for every object in key order.
    private func query(_ request: PageRequest, _ table: Table) throws -> StoredQuery? {
        guard request.filter != nil || request.sort != nil else { return nil }
        return try StoredQuery(
            table: table, catalog: catalog, predicate: request.filter, sortedBy: request.sort,
            ascending: !request.descending)
    }
}

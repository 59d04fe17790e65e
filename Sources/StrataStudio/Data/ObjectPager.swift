import Foundation
import Strata
import StrataStorage

/// Answers a ``PageRequest``: the objects of one page of a model, and how they were found (the `explain` the page
/// shows beside the results).
///
/// The page reads only what it shows wherever it can:
/// - in key order without a filter, the tree's subtree counts find the page's first object in O(log n), so the
///   first page of a million objects costs the same as that of ten;
/// - with a filter, the scan runs in key order and stops once the page is full (and one more match tells
///   whether there are more); the total is counted only when asked (`count=1`);
/// - sorted by a property, the column is read once for every selected object and only the page's objects are
///   kept in order (a bounded selection, not a sort of the whole table).
struct ObjectPager {
    let catalog: Catalog

    /// The page as JSON: model, columns, rows, offset, limit, total (or `null` when not counted), more, explain
    /// and the milliseconds the server spent.
    func page(_ request: PageRequest) throws -> JSONValue {
        let started = DispatchTime.now().uptimeNanoseconds
        let table = try ModelLookup.table(request.model, in: catalog)
        let filter = try request.filter.map { try RowFilter($0, catalog: catalog) }
        let sortColumn = try request.sort.map { name -> ColumnSpec in
            guard let spec = table.column(named: name), case .value = spec.type else {
                throw StudioError(400, "\(table.name) has no property '\(name)' to sort by (a value property)")
            }
            return spec
        }
        let objectCount = try table.count()
        var keys: [ObjectKey] = []
        var total: Int?
        var more = false
        var explain: [String] = []
        var scanned = 0
        let wanted = request.offset + request.limit
        if let sortColumn {
            // A bounded selection: the `wanted` first (value, key) pairs in order.
            var best: [(value: StorageValue, key: ObjectKey)] = []
            var matched = 0
            try table.forEachKey { key in
                scanned += 1
                if let filter, try !filter.matches(key, of: table) { return true }
                matched += 1
                let value = try table.value(key, column: sortColumn.key)
                Self.insert((value, key), into: &best, keeping: wanted, descending: request.descending)
                return true
            }
            total = matched
            more = matched > wanted
            keys = best.dropFirst(request.offset).map(\.key)
            explain.append("full scan of \(table.name) (\(objectCount) objects) reading \(sortColumn.name) of each"
                + (filter == nil ? "" : " matching object") + ", keeping the first \(wanted) in "
                + (request.descending ? "descending" : "ascending") + " order (a bounded selection, not a full sort)")
        } else if let filter {
            var matched = 0
            let stopAt = request.countAll ? Int.max : wanted + 1
            let ascending = !request.descending
            let visit: (ObjectKey) throws -> Bool = { key in
                scanned += 1
                guard try filter.matches(key, of: table) else { return true }
                matched += 1
                if matched > request.offset, matched <= wanted { keys.append(key) }
                return matched < stopAt
            }
            if ascending {
                try table.forEachKey(visit)
            } else {
                var position = objectCount - 1
                while position >= 0, try visit(try table.key(at: position)) { position -= 1 }
            }
            more = matched > wanted
            total = request.countAll || scanned == objectCount ? matched : nil
            explain.append("scan of \(table.name) in " + (ascending ? "ascending" : "descending")
                + " key order evaluating the predicate on each object; read \(scanned) of \(objectCount) objects"
                + (scanned < objectCount ? " (stopped once the page was full)" : ""))
        } else {
            total = objectCount
            let end = min(wanted, objectCount)
            if request.offset < end {
                for position in request.offset..<end {
                    let index = request.descending ? objectCount - 1 - position : position
                    keys.append(try table.key(at: index))
                }
            }
            more = objectCount > wanted
            scanned = keys.count
            explain.append("positional read of \(keys.count) objects of \(table.name) (\(objectCount) objects) in "
                + (request.descending ? "descending" : "ascending")
                + " key order: each found in O(log n) through the tree's subtree counts")
        }
        if let text = request.filter {
            explain.append("predicate: \(text) (evaluated on stored rows from the file's schema, as strata export "
                + "--filter does; comparisons of properties and to-one link paths with constants)")
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
            ("scanned", .number(String(scanned))),
            ("explain", .string(explain.joined(separator: "; "))),
            ("milliseconds", .number(String(format: "%.2f", elapsed))),
        ])
    }

    /// The keys the request selects, every one of them, in its order: what an export of a query's results writes.
    func allKeys(_ request: PageRequest) throws -> (Table, [ObjectKey]) {
        let table = try ModelLookup.table(request.model, in: catalog)
        let filter = try request.filter.map { try RowFilter($0, catalog: catalog) }
        var keys: [ObjectKey] = []
        try table.forEachKey { key in
            if try filter?.matches(key, of: table) ?? true { keys.append(key) }
            return true
        }
        if let name = request.sort {
            guard let spec = table.column(named: name), case .value = spec.type else {
                throw StudioError(400, "\(table.name) has no property '\(name)' to sort by (a value property)")
            }
            let values = try keys.map { (value: try table.value($0, column: spec.key), key: $0) }
            keys = values.sorted { Self.ordered($0, $1, descending: request.descending) }.map(\.key)
        } else if request.descending {
            keys.reverse()
        }
        return (table, keys)
    }

    private static func ordered(
        _ left: (value: StorageValue, key: ObjectKey), _ right: (value: StorageValue, key: ObjectKey), descending: Bool
    ) -> Bool {
        let order = ValueOrder.compare(left.value, right.value)
        if order != 0 { return descending ? order > 0 : order < 0 }
        return descending ? left.key > right.key : left.key < right.key
    }

    /// Inserts `entry` into `best` (kept in order) when it is among the `limit` first.
    private static func insert(
        _ entry: (value: StorageValue, key: ObjectKey), into best: inout [(value: StorageValue, key: ObjectKey)],
        keeping limit: Int, descending: Bool
    ) {
        if best.count == limit, let last = best.last, !ordered(entry, last, descending: descending) { return }
        var low = 0
        var high = best.count
        while low < high {
            let middle = (low + high) / 2
            if ordered(best[middle], entry, descending: descending) { low = middle + 1 } else { high = middle }
        }
        best.insert(entry, at: low)
        if best.count > limit { best.removeLast() }
    }
}

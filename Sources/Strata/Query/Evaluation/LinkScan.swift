import StrataStorage

/// A comparison through one to-one link (`home.street == %@`, `team.budget > 10`) as a column condition: the linked
/// model's table is scanned once per evaluation for the objects the comparison matches (the comparison compiled as
/// that table's own column condition), then each object's link column is tested against their keys. Without it,
/// every object's link is followed and the value read by key, one object at a time.
///
/// A class, so that `ColumnScan`'s case holds one reference: `ColumnScan.rows` recurses once per level of a nested
/// predicate, and a debug build keeps room in each of its frames for every case's bound payload.
final class LinkScan {
    /// The link column of the tested object's table.
    let link: ColumnKey
    /// The linked model.
    let target: ModelBinding
    /// The comparison on the linked model's own property (the path's last step), as written.
    let comparison: BoundComparison
    /// `comparison` as a column condition of the linked table.
    let inner: ColumnScan
    /// Whether a nil link (a nil value) satisfies the comparison, as the object-by-object evaluation decides it.
    let nilMatches: Bool

    private init(link: ColumnKey, target: ModelBinding, comparison: BoundComparison, inner: ColumnScan) {
        self.link = link
        self.target = target
        self.comparison = comparison
        self.inner = inner
        nilMatches = ObjectEvaluator.test(.null, comparison, comparison.right.constants ?? [])
    }

    /// The scan of `link.property <op> constant` where `link` is a to-one link (or embedded object) of the tested
    /// object and the comparison on `property` is one the linked table's columns answer in full; `nil` otherwise.
    static func compile(_ comparison: BoundComparison) -> LinkScan? {
        guard case .path(let path) = comparison.left, path.root == .object, !path.isToMany, path.steps.count == 2,
            case .property(let model, let linkColumn) = path.steps[0],
            case .link = model.description.properties[linkColumn].type.unwrapped,
            case .property(let target, _) = path.steps[1]
        else { return nil }
        switch comparison.right {
        case .value, .list: break
        default: return nil
        }
        var onTarget = comparison
        var targetPath = path
        targetPath.steps = [path.steps[1]]
        onTarget.left = .path(targetPath)
        let inner = ColumnScan(.comparison(onTarget))
        guard inner.isColumnOnly else { return nil }
        return LinkScan(link: model.columns[linkColumn], target: target, comparison: onTarget, inner: inner)
    }

    /// The ascending keys of `target`'s objects the comparison matches, found by a scan of their table the first
    /// time an evaluation asks and kept by its evaluator for the rest of it (``ObjectEvaluator/matchingKeys``).
    func targetKeys(_ evaluator: ObjectEvaluator) throws -> [Int64] {
        try evaluator.matchingKeys(of: target, for: comparison) { table in
            var keys: [Int64] = []
            try table.forEachCluster { targetCluster in
                let all = RowMask(count: targetCluster.count, filled: true)
                try inner.rows(of: targetCluster, within: all, evaluator: evaluator).forEachSetRow { row in
                    keys.append(targetCluster.key(at: row).rawValue)
                }
                return true
            }
            // Clusters come in key order; sorting is a safeguard for the binary search below, not a step.
            if zip(keys, keys.dropFirst()).contains(where: { $0 >= $1 }) { keys.sort() }
            return keys
        }
    }

    /// Rows among `within` whose link points to an object of `target` that `inner` matches, or is nil when
    /// ``nilMatches``.
    func rows(of cluster: ScannedCluster, within: RowMask, evaluator: ObjectEvaluator) throws -> RowMask {
        let keys = try targetKeys(evaluator)
        var mask = RowMask(count: within.count)
        guard !keys.isEmpty || nilMatches else { return mask }
        let links = try cluster.intColumn(link)
        within.forEachSetRow { row in
            if links.nulls.isNull(row) {
                if nilMatches { mask.set(row) }
            } else if Self.sortedKeys(keys, contain: links[row]) {
                mask.set(row)
            }
        }
        return mask
    }

    /// Whether ascending `keys` holds `key` (a binary search).
    private static func sortedKeys(_ keys: [Int64], contain key: Int64) -> Bool {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key
    }
}

import StrataStorage

extension Results {
    /// Iterates the objects the query selected when the iteration began.
    ///
    /// The keys are read once, so a loop pays for the confinement check and the key cache once, not per element,
    /// and deleting or changing objects inside the loop (in a write) neither skips nor repeats elements: the loop
    /// visits what the results held when it started, as Realm's enumeration of a snapshot does. An object deleted
    /// meanwhile is still handed out; check `isInvalidated` before reading it.
    ///
    /// A filter that a column scan answers alone, outside a write, is scanned as the loop goes, a cluster at a
    /// time (``IncrementalScan``): each object is then read while its cluster is still in the caches. The scan
    /// reads the version the loop started in, which it holds, so the loop visits the same objects.
    public struct Iterator: IteratorProtocol {
        private let database: Database
        private let model: ModelBinding
        /// The keys when the loop began; a lookup's one object inline (see
        /// ``KeyCache/iteration(of:in:model:reading:)``). Empty when `scan` finds them instead.
        private let keys: FoundKeys
        /// The scan that finds the keys as the loop goes, when the loop runs one.
        private let scan: IncrementalScan?
        /// The results' key cache, which keeps `scan`'s keys once it has found them all.
        private let cache: KeyCache
        private var position = 0
        /// Whether the model's class is `Element` itself, so objects are made without a dynamic cast.
        private let isExactType: Bool
        /// The model's table when the loop began and the database's change stamp then, handed to each object so
        /// that its first property read does not look the table up again (an object checks the stamp first).
        /// Not retained, as a row keeps it (``ManagedRow``'s `table`): it is handed out only while the stamp is
        /// unchanged, when the database's catalog (or the scan's, which the loop holds) still holds it.
        private let table: Unmanaged<Table>?
        private let stamp: UInt64
        /// The row of the object handed out last: when the caller has let go of that object (and nothing else
        /// holds the row), the next object gets the same row, moved to its key (``ManagedRow/reuse(for:table:stamp:)``),
        /// so a loop that reads each element and drops it allocates one object per element, not an object and
        /// its row. Each element is still a new instance (`===`, `ObjectIdentifier` of live elements and weak
        /// references to elements behave as without the reuse): only the row, which no caller sees, is reused.
        private var lastRow: ManagedRow?

        /// An iteration of `results`: its keys and its table taken under one confinement check. Borrowed: an
        /// initializer's parameter is owned by default, so the caller copied the whole results (its database,
        /// query and cache retained) for the iterator to destroy.
        init(_ results: borrowing Results<Element>) {
            let database = results.database
            let model = results.model
            self.database = database
            self.model = model
            isExactType = model.type == Element.self
            let (keys, scan, table) = results.cache.iteration(
                of: results.query, in: database, model: model, reading: Element.self)
            self.keys = keys
            self.scan = scan
            cache = results.cache
            self.table = table.map(Unmanaged.passUnretained)
            stamp = database.changeStamp
        }

        /// The next object, or `nil` after the last.
        public mutating func next() -> Element? {
            let key: ObjectKey
            if let scan {
                if position == scan.keys.count,
                    !cache.scanMore(scan, in: database, stamp: stamp, reading: Element.self)
                {
                    return nil
                }
                key = scan.keys[position]
                scan.noteRow(ofKeyAt: position)
            } else {
                guard position < keys.count else { return nil }
                key = keys[position]
            }
            position += 1
            // After a change inside the loop the table may be another version's: the object then looks it up.
            let current = database.changeStamp == stamp ? table : nil
            let row: ManagedRow
            if isKnownUniquelyReferenced(&lastRow), let spare = lastRow, spare.isReusable {
                spare.reuse(for: key, table: current, stamp: stamp)
                row = spare
            } else {
                row = ManagedRow(database: database, model: model, key: key, table: current, stamp: stamp)
                lastRow = row
            }
            if isExactType { return Element(managedBy: row) }
            guard let object = model.type.init(managedBy: row) as? Element else {
                preconditionFailure("Strata: Results<\(Element.self)> holds objects of \(model.name)")
            }
            return object
        }
    }

    /// An iterator over the objects the query selects now.
    public func makeIterator() -> Iterator {
        if ObservationProbe.isTracking(database.observationProbe) { track(\.observedElements) }
        return Iterator(self)
    }
}

import StrataStorage
import StrataTestSupport

/// A catalog over a `MemoryNodeSpace` with helpers to commit and reopen, for table-layer tests.
final class TableFixture {
    /// The node space.
    let space = MemoryNodeSpace()
    /// The catalog of the current write transaction.
    private(set) var catalog: Catalog

    /// An empty store with an open write transaction.
    init() throws { catalog = try Catalog(writer: space) }

    /// Flushes, commits and opens the next write transaction's catalog.
    func commit() throws {
        try catalog.flush()
        space.commit()
        catalog = try Catalog(writer: space)
    }

    /// Discards the transaction and reopens the last committed state.
    func rollback() throws {
        space.rollback()
        catalog = try Catalog(writer: space)
    }

    /// A read-only catalog of the last committed version.
    func reader() throws -> Catalog { try Catalog(reader: ReadView(space)) }

    /// The committed version seen through `NodeReader` only.
    final class ReadView: NodeReader {
        let space: MemoryNodeSpace
        let root: NodeRef
        init(_ space: MemoryNodeSpace) {
            self.space = space
            root = space.root
        }
        func read(_ ref: NodeRef) throws -> UnsafeRawBufferPointer { try space.read(ref) }
    }
}

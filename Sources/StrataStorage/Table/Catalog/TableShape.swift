/// What a table is, without its contents: its key and name, whether it holds embedded objects, and its columns.
///
/// `Catalog.shape(ofTableNamed:)` reads it from the catalog's record of the table without building the `Table`
/// (its column context, cluster tree and indexes): what opening a database checks of every model's table, most of
/// which the first transactions never read.
public struct TableShape: Sendable {
    /// The table's key in the catalog.
    public let key: TableKey
    /// The table's name.
    public let name: String
    /// Whether the table holds embedded objects (each owned by one link or list element).
    public let isEmbedded: Bool
    /// Every column, including the engine's backlink columns, in storage order (as `Table.columns`).
    public let columns: [ColumnSpec]

    /// The column named `name` (as `Table.column(named:)`).
    public func column(named name: String) -> ColumnSpec? { columns.first { $0.name == name } }
}

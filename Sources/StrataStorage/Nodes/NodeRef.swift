/// Where a node lives in the file: the number of its first page.
///
/// Nodes are the unit the table layer reads and writes; the pager places each node on one or more
/// contiguous pages and checks its checksum. Page 0 holds the header, so `NodeRef.none` (0) is never a node.
package struct NodeRef: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The page number of the node's first page.
    package var rawValue: UInt64

    /// Creates a reference from a page number.
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    /// No node (an empty tree, an unset root).
    package static let none = NodeRef(rawValue: 0)

    /// Whether this refers to no node.
    package var isNone: Bool { rawValue == 0 }

    /// Orders references by page number.
    package static func < (lhs: NodeRef, rhs: NodeRef) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#<page>`.
    package var description: String { "#\(rawValue)" }
}

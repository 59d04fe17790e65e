/// Where a node lives in the file, and which version wrote it: the number of its first page in the low 40 bits, a
/// tag of the writing version in the high 24.
///
/// Nodes are the unit the table layer reads and writes; the pager places each node on one or more
/// contiguous pages and checks its checksum. Page 0 holds the header, so `NodeRef.none` (0) is never a node.
///
/// The version tag binds a reference to the node it was made for (docs/FILE-FORMAT.md, "Binding a node to its
/// place"): a node read through a reference whose tag differs from the tag of the version in the node's header is an
/// older (or newer) node on the same page, put back or left there by damage, and the pager reports it instead of
/// answering with it. A tag of 0 is an *unbound* reference, as files of formats 1 and 2 hold: it names a page and
/// nothing more. Page numbers stay below 2⁴⁰ (a 1 TiB file of 2 KiB pages has 2²⁹), so every stored reference
/// keeps its 8 bytes.
package struct NodeRef: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The page number (low 40 bits) and version tag (high 24 bits), as stored in the file.
    package var rawValue: UInt64

    /// Bits of `rawValue` that hold the page number.
    package static let pageBits = 40
    /// The first page number a reference cannot hold: files never grow this far.
    package static let pageLimit: UInt64 = 1 << pageBits
    /// The largest version tag (24 bits).
    private static let tagMask: UInt64 = (1 << (64 - pageBits)) - 1

    /// Creates a reference from its stored form.
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A reference to the node on `page`, bound to `version` (the version that wrote it), or unbound when
    /// `version` is nil. `page` must be below `pageLimit`.
    package init(page: UInt64, writtenBy version: UInt64?) {
        precondition(page < Self.pageLimit, "page \(page) is past the \(Self.pageLimit) pages a reference can name")
        rawValue = page | (version.map(Self.tag(of:)) ?? 0) << Self.pageBits
    }

    /// No node (an empty tree, an unset root).
    package static let none = NodeRef(rawValue: 0)

    /// Whether this refers to no node.
    package var isNone: Bool { rawValue == 0 }

    /// The number of the node's first page.
    package var page: UInt64 { rawValue & (Self.pageLimit - 1) }

    /// The tag of the version that wrote the node (`tag(of:)`), or 0 for an unbound reference.
    package var versionTag: UInt64 { rawValue >> Self.pageBits }

    /// The tag a reference to a node written by `version` carries: the version's low 24 bits, never 0 (a version
    /// whose low bits are all zero takes the largest tag instead, so 0 keeps meaning "unbound").
    package static func tag(of version: UInt64) -> UInt64 {
        let low = version & tagMask
        return low == 0 ? tagMask : low
    }

    /// Orders references by page number (then by tag).
    package static func < (lhs: NodeRef, rhs: NodeRef) -> Bool {
        (lhs.page, lhs.versionTag) < (rhs.page, rhs.versionTag)
    }

    /// `#<page>`.
    package var description: String { "#\(page)" }
}

import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
// UIKit and AppKit give `IndexPath` its `section` and `item`/`row` accessors; elsewhere (Linux) Strata provides
// the same names so that ResultsController code reads alike on every platform.
extension IndexPath {
    /// An index path to `row` in `section`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// An index path to `item` in `section`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section: the first index.
    public var section: Int { self[0] }

    /// The row within the section: the second index.
    public var row: Int { self[1] }

    /// The item within the section: the second index.
    public var item: Int { self[1] }
}
#endif

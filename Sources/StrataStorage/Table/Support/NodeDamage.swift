/// Builds the error the table layer throws when a node's bytes do not describe a valid structure.
///
/// The pager has already checked the node's checksum, so a damaged node here means a bug or a file written by
/// something else: report where (the node and what it was meant to hold) and never read past its end.
enum NodeDamage {
    /// A `StrataError.corruptFile` naming the node and what was wrong with it.
    static func error(_ ref: NodeRef, _ what: String, _ detail: String) -> StrataError {
        StrataError.corruptFile(
            path: StrataError.unnamedFile,
            location: "node \(ref) (\(what))",
            detail: detail + "; run `strata verify` and restore from a backup if it fails"
        )
    }
}

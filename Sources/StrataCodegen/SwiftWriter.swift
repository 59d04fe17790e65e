/// Accumulates indented Swift source text.
struct SwiftWriter {
    private(set) var text = ""
}

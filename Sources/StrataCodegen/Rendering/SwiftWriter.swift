/// Accumulates indented Swift source text, one line at a time.
///
/// Emitters describe code as nested blocks (`block("final class Book: Object") { ... }`), so indentation and
/// braces are always balanced and the generated file reads like hand-formatted code.
struct SwiftWriter {
    /// The text written so far.
    private(set) var text = ""
    /// The current indentation depth, in levels of four spaces.
    private var depth = 0

    /// Writes one line at the current indentation; an empty line stays empty (no trailing spaces).
    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: depth) + content + "\n"
        }
    }

    /// Writes `header {`, the body one level deeper, then `}` (followed by `trailer`, e.g. `)`).
    ///
    /// A top-level declaration is written `nonisolated`, so the generated code compiles in a target of either
    /// default isolation: with `.defaultIsolation(MainActor.self)` (SE-0466, Xcode 26's default for new app
    /// targets) the models would otherwise become main-actor isolated and no longer match the members of
    /// `Object` and `Schema` they override or implement. Nested declarations follow their enclosing one.
    mutating func block(_ header: String, trailer: String = "", _ body: (inout SwiftWriter) -> Void) {
        line((depth == 0 ? "nonisolated " : "") + header + " {")
        indented(body)
        line("}" + trailer)
    }

    /// Writes `body` one level deeper than the current line.
    mutating func indented(_ body: (inout SwiftWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Characters that end a line for Swift's lexer or for editors: inside a `///` comment, any of them would end
    /// the comment and leave the rest of the doc as code (a `\r` from a YAML `doc:` did, issue #23).
    static let lineBreaks: Set<Character> = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

    /// Writes `text` as a `///` doc comment, one comment line per line of text (any of ``lineBreaks`` starts a
    /// new one). Long lines are wrapped at word boundaries to keep within ``width``.
    mutating func doc(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        let docLines = text.split(omittingEmptySubsequences: false) { Self.lineBreaks.contains($0) }
        for docLine in docLines {
            let trimmed = docLine.trimmingTrailingSpaces()
            if trimmed.isEmpty {
                line("///")
                continue
            }
            var current = ""
            for word in trimmed.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if !current.isEmpty && !fits("/// " + candidate) {
                    line("/// " + current)
                    current = String(word)
                } else {
                    current = candidate
                }
            }
            line("/// " + current)
        }
    }

    /// The column limit the generated code keeps to where it can (STYLE: 120).
    static let width = 120

    /// Whether `content` fits on one line at the current indentation.
    func fits(_ content: String) -> Bool {
        depth * 4 + content.count <= Self.width
    }

    /// Writes `head(arguments)tail` on one line if it fits, otherwise with one argument per line.
    mutating func call(_ head: String, _ arguments: [String], tail: String = "") {
        let oneLine = head + "(" + arguments.joined(separator: ", ") + ")" + tail
        if fits(oneLine) || arguments.isEmpty {
            line(oneLine)
            return
        }
        line(head + "(")
        indented { list in
            for (offset, argument) in arguments.enumerated() {
                list.line(argument + (offset == arguments.count - 1 ? "" : ","))
            }
        }
        line(")" + tail)
    }

    /// Writes `if let accessor = managedAccessor { managed } else { unmanaged }` on one line if it fits,
    /// otherwise as a five-line statement.
    mutating func managedBranch(_ managed: String, else unmanaged: String) {
        let condition = "if let accessor = managedAccessor"
        let oneLine = "\(condition) { \(managed) } else { \(unmanaged) }"
        if fits(oneLine) {
            line(oneLine)
            return
        }
        line(condition + " {")
        indented { $0.line(managed) }
        line("} else {")
        indented { $0.line(unmanaged) }
        line("}")
    }

    /// Writes a property accessor (`get`, `set`) whose body is a ``managedBranch(_:else:)``: on one line when it
    /// fits, as a block otherwise.
    mutating func accessor(_ keyword: String, managed: String, unmanaged: String) {
        let oneLine = "\(keyword) { if let accessor = managedAccessor { \(managed) } else { \(unmanaged) } }"
        if fits(oneLine) {
            line(oneLine)
        } else {
            block(keyword) { $0.managedBranch(managed, else: unmanaged) }
        }
    }

    /// Writes a getter that reads through the object's own typed reads when it is managed
    /// (`get { if managedAccessor != nil { managed } else { unmanaged } }`), binding no accessor: on one line when
    /// it fits, as a block otherwise.
    mutating func objectGetter(managed: String, unmanaged: String) {
        let condition = "if managedAccessor != nil"
        let oneLine = "get { \(condition) { \(managed) } else { \(unmanaged) } }"
        if fits(oneLine) {
            line(oneLine)
            return
        }
        block("get") { body in
            let branch = "\(condition) { \(managed) } else { \(unmanaged) }"
            if body.fits(branch) {
                body.line(branch)
                return
            }
            body.line(condition + " {")
            body.indented { $0.line(managed) }
            body.line("} else {")
            body.indented { $0.line(unmanaged) }
            body.line("}")
        }
    }

    /// Writes a `// MARK: - title` line preceded by an empty line.
    mutating func mark(_ title: String) {
        line()
        line("// MARK: - " + title)
        line()
    }
}

extension Substring {
    /// The text without spaces and tabs at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, let last = self[..<end].last, last == " " || last == "\t" {
            end = index(before: end)
        }
        return String(self[..<end])
    }
}

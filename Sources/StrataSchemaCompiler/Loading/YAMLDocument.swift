import StrataSchema
import Yams

/// One schema file composed into YAML nodes, with what is needed to report problems at the right place.
///
/// Yams refuses a mapping with a duplicate key outright, pointing at the *first* occurrence. A schema author
/// wants to hear "model 'Book' is defined twice" at the second one, with the rest of the file still checked.
/// So when Yams reports a duplicate, the first occurrence's key is masked in the text by a placeholder of the
/// same length (columns stay exact), and the text is composed again; the reader maps placeholders back to the
/// original names and reports every later occurrence as a duplicate in the words of its context.
struct YAMLDocument {
    /// The root node; `nil` for an empty file.
    var root: Node?
    /// Original names of masked keys, by position.
    var maskedKeys: [Position: String]
    /// The file's path, for locations.
    var path: String

    /// A 1-based line and column as libyaml counts them (columns in Unicode scalars).
    struct Position: Hashable {
        var line: Int
        var column: Int
    }

    /// How many duplicates are unmasked before giving up and reporting Yams' own message.
    private static let maskingLimit = 64

    /// Composes `text`, or returns the diagnostic of the syntax error that prevents it.
    static func compose(_ text: String, path: String) -> Result<YAMLDocument, Diagnostic> {
        if let alias = YAMLAliasScanner.firstAlias(in: text) {
            return .failure(.error(
                "YAML aliases ('\(alias.text)') are not supported in schema files: write the value out where it "
                    + "is used",
                at: SourceLocation(path: path, line: alias.line, column: alias.column)))
        }
        var text = text
        var masked: [Position: String] = [:]
        for attempt in 0...maskingLimit {
            do {
                let root = try Yams.compose(yaml: text, .default, .default, .utf8)
                return .success(YAMLDocument(root: root, maskedKeys: masked, path: path))
            } catch let error as YamlError {
                if case .duplicatedKeysInMapping(let duplicates, let context) = error, attempt < maskingLimit,
                    let name = duplicates.first,
                    let maskedText = mask(key: name, at: context.mark, in: text, attempt: attempt) {
                    masked[Position(line: context.mark.line, column: context.mark.column)] = name
                    text = maskedText
                    continue
                }
                return .failure(diagnostic(for: error, path: path))
            } catch {
                let start = SourceLocation(path: path, line: 1, column: 1)
                return .failure(.error("cannot read YAML: \(error)", at: start))
            }
        }
        return .failure(.error("too many duplicate keys", at: SourceLocation(path: path, line: 1, column: 1)))
    }

    /// The location of `node`, or `fallback` when the node carries no mark.
    func location(of node: Node, or fallback: SourceLocation) -> SourceLocation {
        guard let mark = node.mark else { return fallback }
        return SourceLocation(path: path, line: mark.line, column: mark.column)
    }

    /// The key's text as the author wrote it, undoing masking.
    func keyName(_ node: Node) -> String? {
        guard case .scalar(let scalar) = node else { return nil }
        if let mark = scalar.mark, let original = maskedKeys[Position(line: mark.line, column: mark.column)] {
            return original
        }
        return scalar.string
    }

    /// Replaces the key `name` that starts at `mark` by private-use characters of the same count, so that every
    /// other position in the file is unchanged. Returns `nil` when the text there is not exactly the key
    /// (escaped or multi-line keys), in which case the caller reports Yams' message instead.
    private static func mask(key name: String, at mark: Mark, in text: String, attempt: Int) -> String? {
        guard !name.isEmpty else { return nil }
        var scalars = Array(text.unicodeScalars)
        var line = 1
        var index = 0
        while line < mark.line, index < scalars.count {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }
        index += mark.column - 1
        guard line == mark.line, index >= 0, index < scalars.count else { return nil }
        if scalars[index] == "\"" || scalars[index] == "'" { index += 1 }
        let key = Array(name.unicodeScalars)
        guard index + key.count <= scalars.count, Array(scalars[index..<index + key.count]) == key,
            let placeholder = Unicode.Scalar(0xE000 + UInt32(attempt))
        else { return nil }
        for offset in 0..<key.count { scalars[index + offset] = placeholder }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// Turns Yams' error into a positioned diagnostic in the schema author's terms.
    private static func diagnostic(for error: YamlError, path: String) -> Diagnostic {
        func at(_ mark: Mark) -> SourceLocation {
            SourceLocation(path: path, line: max(mark.line, 1), column: max(mark.column, 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax error: \(problem)"
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            return .error(message + "; fix the indentation, quoting or brackets here", at: at(mark))
        case .reader(let problem, let offset, let value, let yaml):
            let location = offset.map { position(ofCharacterOffset: $0, in: yaml) }
                ?? SourceLocation(path: path, line: 1, column: 1)
            let character = value >= 0 ? " (character 0x\(String(value, radix: 16, uppercase: true)))" : ""
            return .error(
                "cannot read the file: \(problem)\(character); schema files are UTF-8 text without control characters",
                at: SourceLocation(path: path, line: location.line, column: location.column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return .error("duplicate key \(names) in this mapping: each key may appear only once", at: at(context.mark))
        default:
            return .error("cannot read YAML: \(error)", at: SourceLocation(path: path, line: 1, column: 1))
        }
    }

    /// Line and column (1-based) of the character at `offset`.
    private static func position(ofCharacterOffset offset: Int, in text: String) -> SourceLocation {
        var line = 1
        var column = 1
        for (index, character) in text.enumerated() {
            if index >= offset { break }
            if character == "\n" || character == "\r\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourceLocation(path: "", line: line, column: column)
    }
}

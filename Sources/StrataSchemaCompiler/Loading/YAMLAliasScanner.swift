/// Finds YAML aliases (`*name`) before the text reaches Yams.
///
/// Schema files are refused if they use aliases: nothing in a schema needs them, and Yams hashes every mapping
/// key while composing, so an alias used as a key to a nested "billion laughs" structure would make the
/// compiler hash billions of nodes. Anchors (`&name`) alone are harmless and left alone.
///
/// The scan follows just enough YAML to avoid false alarms: quoted scalars, comments, block scalars (`|`, `>`)
/// and the positions where a node can start (libyaml's alias names are letters, digits, `_` and `-`).
enum YAMLAliasScanner {
    /// Where the first alias is, and its text.
    struct Alias: Equatable {
        var line: Int
        var column: Int
        var text: String
    }

    /// The first alias in `text`, or `nil`.
    static func firstAlias(in text: String) -> Alias? {
        var quote: Unicode.Scalar?
        var blockIndent: Int?
        var flowDepth = 0
        // Lines split on "\n" scalars, as libyaml counts them (a Character split would keep "\r\n" whole).
        for (lineIndex, line) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated() {
            let scalars = Array(line)
            let indent = scalars.prefix { $0 == " " }.count
            if let parentIndent = blockIndent {
                let isBlank = scalars.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
                if isBlank || indent > parentIndent { continue }
                blockIndent = nil
            }
            var atNodeStart = quote == nil
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
                if let open = quote {
                    if open == "\"" && scalar == "\\" {
                        index += 2
                        continue
                    }
                    if scalar == open {
                        if open == "'" && next == "'" {
                            index += 2
                            continue
                        }
                        quote = nil
                    }
                    index += 1
                    continue
                }
                let followedBySpace = next == nil || next == " " || next == "\t" || next == "\r"
                let afterSpace = index == 0 || scalars[index - 1] == " " || scalars[index - 1] == "\t"
                if scalar == " " || scalar == "\t" {
                    // Spaces keep whatever position the scan is at.
                } else if scalar == "#" && afterSpace {
                    break
                } else if atNodeStart && (scalar == "\"" || scalar == "'") {
                    quote = scalar
                    atNodeStart = false
                } else if atNodeStart && scalar == "*" {
                    let name = scalars[(index + 1)...].prefix(while: isAnchorCharacter)
                    if !name.isEmpty {
                        var text = String.UnicodeScalarView()
                        text.append(contentsOf: name)
                        return Alias(line: lineIndex + 1, column: index + 1, text: "*" + String(text))
                    }
                    atNodeStart = false
                } else if atNodeStart && (scalar == "|" || scalar == ">") {
                    blockIndent = indent
                    break
                } else if scalar == "[" || scalar == "{" {
                    flowDepth += 1
                    atNodeStart = true
                } else if scalar == "]" || scalar == "}" {
                    flowDepth = max(0, flowDepth - 1)
                    atNodeStart = false
                } else if scalar == "," && flowDepth > 0 {
                    atNodeStart = true
                } else if scalar == ":" && followedBySpace {
                    atNodeStart = true
                } else if (scalar == "-" || scalar == "?") && followedBySpace && atNodeStart {
                    // A sequence entry or explicit key: the node starts after it.
                } else {
                    atNodeStart = false
                }
                index += 1
            }
        }
        return nil
    }

    private static func isAnchorCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "_" || scalar == "-"
    }
}

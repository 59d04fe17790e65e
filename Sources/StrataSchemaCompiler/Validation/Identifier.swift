/// The rules for names in a schema: Swift identifiers of at most 255 UTF-8 bytes.
enum Identifier {
    /// The longest name, in UTF-8 bytes (docs/SCHEMA.md: no 57/63-byte limit as in Realm, but not unbounded).
    static let maximumUTF8Length = 255

    /// Whether `name` is a Swift identifier: a letter or `_` (not `_` alone), then letters, digits or `_`, each
    /// of them a character Swift's lexer accepts there (``SwiftIdentifierCharacters``).
    ///
    /// Keywords are accepted: generated code escapes them with backticks.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name != "_" else { return false }
        guard first == "_" || isLetter(first), SwiftIdentifierCharacters.canStart(first) else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy {
            ($0 == "_" || isLetter($0) || isDigit($0)) && SwiftIdentifierCharacters.canContinue($0)
        }
    }

    /// The problem with `name` as the name of `what` ("model", "property 'Person.age'", ...), or `nil`.
    static func problem(with name: String, as what: String) -> String? {
        if name.utf8.count > maximumUTF8Length {
            return "\(what) name '\(name.prefix(40))…' is \(name.utf8.count) UTF-8 bytes long; "
                + "names are at most \(maximumUTF8Length) bytes: choose a shorter name"
        }
        if !isValid(name) {
            let shown = name.isEmpty ? "(empty)" : "'\(name)'"
            var message = "\(what) name \(shown) is not a valid Swift identifier: "
                + "use letters, digits and '_', not starting with a digit"
            if let fixed = repaired(name), fixed != name { message += " (for example '\(fixed)')" }
            return message
        }
        return nil
    }

    /// `name` with invalid characters turned into camel case, when that leaves a valid identifier.
    static func repaired(_ name: String) -> String? {
        var result = ""
        var upperNext = false
        for scalar in name.unicodeScalars {
            if (isLetter(scalar) || isDigit(scalar) || scalar == "_") && SwiftIdentifierCharacters.canContinue(scalar) {
                let text = String(scalar)
                result += upperNext && !result.isEmpty ? text.uppercased() : text
                upperNext = false
            } else {
                upperNext = true
            }
        }
        if let first = result.unicodeScalars.first, isDigit(first) { result = "_" + result }
        return isValid(result) ? result : nil
    }

    /// Whether the name starts with an upper-case letter, as Swift type names do.
    static func isUpperCamel(_ name: String) -> Bool {
        guard let first = name.first else { return false }
        return first.isUppercase
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic && !scalar.properties.isWhitespace
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType == .decimal
    }
}

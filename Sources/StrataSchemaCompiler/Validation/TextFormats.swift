/// Checks of the textual forms defaults are written in, without Foundation's parsers so that the rules are
/// the same on every platform and every value is checked field by field.
enum ISO8601Text {
    /// `YYYY-MM-DD`, or that followed by `T` (or a space) `HH:MM:SS`, optional `.fraction` and an optional
    /// `Z` / `±HH:MM` zone, normalized to `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; a missing time is
    /// midnight and a missing zone is UTC.
    static func normalized(_ text: String) -> String? {
        let characters = Array(text.trimmingSpaces)
        guard characters.count >= 10, let year = number(characters, 0, 4), characters[4] == "-",
            let month = number(characters, 5, 2), characters[7] == "-", let day = number(characters, 8, 2),
            year >= 1, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let date = String(characters[0..<10])
        if characters.count == 10 { return date + "T00:00:00Z" }
        guard characters.count >= 19, characters[10] == "T" || characters[10] == "t" || characters[10] == " ",
            let hour = number(characters, 11, 2), characters[13] == ":", let minute = number(characters, 14, 2),
            characters[16] == ":", let second = number(characters, 17, 2),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = ""
        if index < characters.count, characters[index] == "." {
            index += 1
            let start = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
            guard index > start else { return nil }
            fraction = "." + String(characters[start..<index])
        }
        var zone = "Z"
        if index < characters.count {
            let rest = String(characters[index...]).trimmingSpaces
            if rest == "Z" || rest == "z" {
                zone = "Z"
            } else {
                let zoneCharacters = Array(rest)
                guard zoneCharacters.count == 6, zoneCharacters[0] == "+" || zoneCharacters[0] == "-",
                    let zoneHour = number(zoneCharacters, 1, 2), zoneCharacters[3] == ":",
                    let zoneMinute = number(zoneCharacters, 4, 2), zoneHour < 24, zoneMinute < 60
                else { return nil }
                zone = rest
            }
        }
        return date + "T" + String(characters[11..<19]) + fraction + zone
    }

    private static func number(_ characters: [Character], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= characters.count else { return nil }
        var value = 0
        for character in characters[start..<start + count] {
            guard character.isASCII, let digit = character.wholeNumberValue else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// UUIDs written as text.
enum UUIDText {
    /// `8-4-4-4-12` hexadecimal digits, upper-cased; `nil` when the text is not that.
    static func normalized(_ text: String) -> String? {
        let characters = Array(text.trimmingSpaces)
        guard characters.count == 36 else { return nil }
        for (index, character) in characters.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == "-" else { return nil }
            } else {
                guard character.isHexDigit else { return nil }
            }
        }
        return String(characters).uppercased()
    }
}

/// ObjectIds written as text.
enum ObjectIdText {
    /// 24 hexadecimal digits, lower-cased; `nil` when the text is not that.
    static func normalized(_ text: String) -> String? {
        let characters = Array(text.trimmingSpaces)
        guard characters.count == 24, characters.allSatisfy(\.isHexDigit) else { return nil }
        return String(characters).lowercased()
    }
}

/// Decimal numbers written as text: an optional `-`, digits with an optional fraction, an optional exponent.
enum DecimalText {
    /// The number without a leading `+`, spaces or a lone trailing point; `nil` when the text is not a decimal
    /// number (at most 38 significant digits, as `Decimal` holds).
    static func normalized(_ text: String) -> String? {
        var characters = Substring(text.trimmingSpaces)
        if characters.first == "+" { characters = characters.dropFirst() }
        var result = ""
        if characters.first == "-" {
            result = "-"
            characters = characters.dropFirst()
        }
        let mantissa = characters.prefix { $0 != "e" && $0 != "E" }
        let exponent = characters.dropFirst(mantissa.count)
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard !mantissa.isEmpty, parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              !parts[0].isEmpty || (parts.count == 2 && !parts[1].isEmpty) else { return nil }
        let digits = parts.joined().drop { $0 == "0" }
        guard digits.count <= 38 else { return nil }
        result += parts[0].isEmpty ? "0" : String(parts[0])
        if parts.count == 2, !parts[1].isEmpty { result += "." + parts[1] }
        if !exponent.isEmpty {
            var power = exponent.dropFirst()
            var sign = ""
            if power.first == "-" || power.first == "+" {
                sign = power.first == "-" ? "-" : ""
                power = power.dropFirst()
            }
            guard !power.isEmpty, power.count <= 3, power.allSatisfy(\.isASCIIDigit), let value = Int(power), value <= 127
            else { return nil }
            result += "e" + sign + String(power)
        }
        return result
    }
}

extension Character {
    /// Whether this is one of `0`-`9`.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Data written as base64 text.
enum Base64Text {
    /// Whether `text` is base64 (standard alphabet, padded); the empty string is empty data.
    static func isValid(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count % 4 == 0 else { return false }
        let padding = scalars.reversed().prefix { $0 == "=" }.count
        guard padding <= 2 else { return false }
        return scalars.dropLast(padding).allSatisfy { scalar in
            ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "+" || scalar == "/"
        }
    }
}

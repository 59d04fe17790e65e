#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StrataStorage

/// The JSON text of each kind of value, shared by snapshots' `Codable` form, `Database.exportJSON` and the
/// `strata` command line, so all three write the same document (docs/VALUES.md, "The JSON form").
///
/// Dates are ISO 8601 in UTC with as many fraction digits as the stored nanoseconds need
/// (`2024-05-01T09:30:00.25Z`), data is Base64, decimals are strings (exact), `ObjectId`s are 24 lowercase
/// hexadecimal digits, UUIDs uppercase, and a float or double that is not finite is the string `NaN`,
/// `Infinity` or `-Infinity`.
package enum SnapshotFormat {
    // MARK: Dates

    /// `date` as the store keeps it (nanoseconds since 1970), then as ISO 8601 text.
    package static func dateText(_ date: Date) -> String { dateText(nanoseconds: ValueConversion.timestamp(date)) }

    /// Nanoseconds since 1970 as ISO 8601 text in UTC.
    package static func dateText(nanoseconds: Int64) -> String {
        let (seconds, fraction) = floorDivide(nanoseconds, 1_000_000_000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction != 0 {
            var digits = pad(fraction, 9)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// The date ISO 8601 `text` names (`2024-05-01T09:30:00Z`, with an optional fraction of up to nine digits and
    /// `Z` or an offset `+02:00`), as the store would keep it; `nil` for other text.
    package static func date(_ text: String) -> Date? { nanoseconds(text).map(ValueConversion.date) }

    /// Nanoseconds since 1970 of ISO 8601 `text`; `nil` for other text or a date the store cannot keep.
    package static func nanoseconds(_ text: String) -> Int64? {
        var text = text
        // The text's own UTF-8 storage: a date parsed per imported object copies nothing.
        return text.withUTF8 { nanoseconds(utf8: $0) }
    }

    /// ``nanoseconds(_:)`` of UTF-8 `bytes`.
    private static func nanoseconds(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var position = 0
        func number(_ count: Int) -> Int64? {
            guard position + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < bytes.count, bytes[position] == character.asciiValue else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T") || expect("t") || expect(" "), let hour = number(2), expect(":"), let minute = number(2),
            expect(":"), let second = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 60
        else { return nil }
        var fraction: Int64 = 0
        if expect(".") {
            var digits = 0
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                guard digits < 9 else { return nil }
                fraction = fraction * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { fraction *= 10 }
        }
        var offset: Int64 = 0
        if expect("Z") || expect("z") {
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowSum) = scaled.addingReportingOverflow(fraction)
        return overflow || overflowSum ? nil : total
    }

    // MARK: Numbers

    /// A float or double's JSON: the shortest text that reads back as the same value, or the string `NaN`,
    /// `Infinity` or `-Infinity` for a value that is not finite (JSON has no number for those).
    package static func numberJSON<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(value.description)
    }

    /// The double JSON `value` holds: a number, or `NaN`, `Infinity` or `-Infinity` as a string.
    package static func double(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let text): return Double(text)
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default: return nil
        }
    }

    /// The 64-bit integer JSON `value` holds (an integral number in range, `3.0` included); `nil` otherwise.
    package static func integer(_ value: JSONValue) -> Int64? {
        guard case .number(let text) = value else { return nil }
        if let exact = Int64(text) { return exact }
        // `3.0` or `1e3`: integral values written otherwise, exact when a double holds them exactly.
        guard let double = Double(text), double.rounded() == double, abs(double) < 9_007_199_254_740_992 else {
            return nil
        }
        return Int64(double)
    }

    // MARK: Calendar

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays count: Int64) -> (Int64, Int64, Int64) {
        let shifted = count + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The day count since 1970-01-01 of a date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

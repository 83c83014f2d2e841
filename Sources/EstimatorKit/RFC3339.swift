/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-22T03:51:46.722Z`),
/// computed by integer arithmetic: `watch --json` stamps every event, the
/// history file stamps every round, and this needs no calendar, locale or
/// time-zone lookup.
public enum RFC3339 {
    /// `time` as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static func string(_ time: Timestamp) -> String {
        let millis = floorDivide(time.nanosecondsSince1970, 1_000_000)
        let days = floorDivide(millis, 86_400_000)
        let msOfDay = millis - days * 86_400_000
        let (year, month, day) = civilDate(daysSince1970: days)
        var out = ""
        out.reserveCapacity(24)
        append(year, digits: 4, to: &out)
        out += "-"
        append(month, digits: 2, to: &out)
        out += "-"
        append(day, digits: 2, to: &out)
        out += "T"
        append(msOfDay / 3_600_000, digits: 2, to: &out)
        out += ":"
        append(msOfDay / 60_000 % 60, digits: 2, to: &out)
        out += ":"
        append(msOfDay / 1000 % 60, digits: 2, to: &out)
        out += "."
        append(msOfDay % 1000, digits: 3, to: &out)
        out += "Z"
        return out
    }

    /// The instant `text` names, in the form `string(_:)` writes: a UTC date
    /// and time, `YYYY-MM-DDTHH:MM:SS`, an optional fraction of any length
    /// (kept to the nanosecond) and `Z`. `nil` for anything else, including
    /// impossible dates such as February 30 and instants a `Timestamp`
    /// cannot hold (before 1677 or after 2262).
    public static func timestamp(_ text: String) -> Timestamp? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b.last == UInt8(ascii: "Z"),
            let year = number(b[0..<4]), let month = number(b[5..<7]), let day = number(b[8..<10]),
            let hour = number(b[11..<13]), let minute = number(b[14..<16]), let second = number(b[17..<19]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var nanoseconds: Int64 = 0
        let fraction = b[19..<(b.count - 1)]
        if !fraction.isEmpty {
            let digits = fraction.dropFirst()
            guard fraction.first == UInt8(ascii: "."), !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
            let padded = Array(digits.prefix(9)) + Array(repeating: UInt8(ascii: "0"), count: max(0, 9 - digits.count))
            nanoseconds = number(padded) ?? 0
        }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        // A Timestamp spans 1677–2262: outside, the date is valid but not an instant
        // here. Before 1970 the fraction is taken from the next whole second, so
        // the earliest instant does not overflow on the way.
        let (whole, part) = seconds < 0 ? (seconds + 1, nanoseconds - 1_000_000_000) : (seconds, nanoseconds)
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, case let (total, false) = scaled.addingReportingOverflow(part) else { return nil }
        return Timestamp(nanosecondsSince1970: total)
    }

    /// The day count from 1970-01-01 of a proleptic Gregorian date: the
    /// inverse of `civilDate(daysSince1970:)`.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1  // from March 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The value of a run of ASCII digits (at most 18, so it cannot overflow).
    private static func number(_ digits: some Collection<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(isDigit) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01, by the
    /// era-based method (400-year eras of 146,097 days).
    static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSince1970 + 719_468  // days since 0000-03-01
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from March 1
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return a % b < 0 ? q - 1 : q
    }

    /// `value` zero-padded to `digits` (years beyond 9999 print in full;
    /// before year 0 they are clamped to 0000, far outside any clock here).
    private static func append(_ value: Int64, digits: Int, to out: inout String) {
        let text = String(max(value, 0))
        if text.count < digits { out += String(repeating: "0", count: digits - text.count) }
        out += text
    }
}

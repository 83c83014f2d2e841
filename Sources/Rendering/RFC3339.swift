import EstimatorKit

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-22T03:51:46.722Z`),
/// computed by integer arithmetic: `watch --json` stamps every event, and
/// this needs no calendar, locale or time-zone lookup.
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

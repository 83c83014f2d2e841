import EstimatorKit
import Glibc

/// Times for people, in the local time zone (`TZ`, else /etc/localtime).
package enum LocalTime {
    /// `2026-11-24 09:12 CET`: to the minute, with the zone's abbreviation
    /// (so a table spanning a daylight-saving change still reads right).
    package static func minute(_ time: Timestamp) -> String {
        guard let parts = parts(of: time) else { return RFC3339.string(time) }
        let zone = parts.tm_zone.map { TerminalText.sanitize(String(cString: $0)) } ?? ""
        let text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
        return zone.isEmpty ? text : text + " " + zone
    }

    /// `14:02`: the hour and minute of a time of today, as the clock on
    /// the wall shows it (`relay down since 14:02`).
    @Sendable package static func clock(_ time: Timestamp) -> String {
        guard let parts = parts(of: time) else { return String(RFC3339.string(time).dropFirst(11).prefix(5)) }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// `time` in the local time zone's calendar; nil when it has none.
    private static func parts(of time: Timestamp) -> tm? {
        tzset()
        let nanoseconds = time.nanosecondsSince1970
        var seconds = time_t(nanoseconds / 1_000_000_000 - (nanoseconds % 1_000_000_000 < 0 ? 1 : 0))
        var parts = tm()
        return localtime_r(&seconds, &parts) == nil ? nil : parts
    }

    private static func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
}

extension LocalTime {
    /// When the day `year`-`month`-`day` begins here (local midnight, or
    /// the day's first hour that exists); `nil` for a day no calendar has
    /// (`2026-02-30`).
    package static func startOfDay(year: Int, month: Int, day: Int) -> Timestamp? {
        tzset()
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_isdst = -1
        let seconds = mktime(&parts)
        // mktime moves a day that does not exist into the next month: refuse it.
        guard seconds != -1, parts.tm_year == Int32(year - 1900), parts.tm_mon == Int32(month - 1),
              parts.tm_mday == Int32(day)
        else { return nil }
        return Timestamp(secondsSince1970: Int64(seconds))
    }

    /// When today began here.
    package static func startOfToday(now: Timestamp) -> Timestamp {
        tzset()
        var seconds = time_t(now.nanosecondsSince1970 / 1_000_000_000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return now }
        return startOfDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)) ?? now
    }
}

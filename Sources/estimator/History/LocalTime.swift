import EstimatorKit
import Glibc

/// Times for people, in the local time zone (`TZ`, else /etc/localtime).
enum LocalTime {
    /// `2026-11-24 09:12 CET`: to the minute, with the zone's abbreviation
    /// (so a table spanning a daylight-saving change still reads right).
    static func minute(_ time: Timestamp) -> String {
        tzset()
        let nanoseconds = time.nanosecondsSince1970
        var seconds = time_t(nanoseconds / 1_000_000_000 - (nanoseconds % 1_000_000_000 < 0 ? 1 : 0))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return RFC3339.string(time) }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let zone = parts.tm_zone.map { TerminalText.sanitize(String(cString: $0)) } ?? ""
        let text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
        return zone.isEmpty ? text : text + " " + zone
    }
}

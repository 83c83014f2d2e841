import ArgumentParser
import Clocks
import EstimatorKit
import SessionDaemon

/// `history --since DATE`: a day, `2026-11-24` or `today`, read as the
/// moment it began in the local time zone.
struct HistoryDay: CommandLineValue {
    /// Local midnight of the day.
    let start: Timestamp
    /// The day as typed, for messages.
    let text: String

    static func argument(_ text: String) throws(ValidationError) -> HistoryDay {
        if text.lowercased() == "today" { return HistoryDay(start: LocalTime.startOfToday(now: SystemClock().now), text: "today") }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
              let start = LocalTime.startOfDay(year: Int(parts[0])!, month: Int(parts[1])!, day: Int(parts[2])!)
        else { throw ValidationError("give a day as 2026-11-24, or today.") }
        return HistoryDay(start: start, text: text)
    }

    static var completion: CompletionKind { .list(["today"]) }
}

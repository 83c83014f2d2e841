import EstimatorKit

/// The line printed for a change when the output is not a terminal (a pipe
/// or a file): one line per change, no cursor movement, no color, for
/// example `2026-11-22T03:51:46.722Z channel 1 Alice voted (-60 dBm)`, or
/// `(relay)` and `(-60 dBm + relay)` for a peer heard through the relay.
public enum ChangeLine {
    /// The line for `change`, its names sanitised.
    public static func line(_ change: WatchChange) -> String {
        switch change {
        case let .peer(event, mark, _, _, hearing):
            let name = ShownName.text(event.name, isNameCut: event.id.isNameCut, isApp: event.id.isApp)
            let shown = face(mark)
            let what: String
            switch event.kind {
            case .joined: what = "joined with \(shown)"
            case .card: what = mark == .hidden ? "voted" : mark == .waiting ? "has no card" : "picked \(shown)"
            case .stale: what = "not heard lately (stale)"
            case .back: what = "back with \(shown)"
            case .left: what = "left"
            }
            // A signal is news only when the peer was just heard.
            let heard = event.kind != .stale && event.kind != .left
            let dBm = event.rssi.map { "\($0) dBm" }
            let signal = switch (heard, hearing) {
            case (false, _): ""
            case (true, .air): dBm.map { " (\($0))" } ?? ""
            case (true, .relay): " (relay)"
            case (true, .both): " (" + (dBm.map { $0 + " + " } ?? "") + "relay)"
            }
            return "\(RFC3339.string(event.time)) channel \(event.channel) \(name) \(what)\(signal)"
        case let .revealed(channel, tally, story, time):
            let cards = tally.entries.compactMap { entry -> String? in
                guard case let .shown(card) = entry.mark else { return nil }
                return "\(ShownName.text(entry.name, isNameCut: entry.isNameCut, isApp: entry.isApp)) \(card)"
            }
            let figures = StatsFooter.parts(tally.stats).joined(separator: " · ")
            let named = story.map { " (\(TerminalText.sanitize($0.title)))" } ?? ""
            return "\(RFC3339.string(time)) channel \(channel)\(label(tally.round))\(named) revealed: "
                + cards.joined(separator: ", ") + " · " + figures
        case let .round(channel, round, title, time):
            let named = title.map { " (\(TerminalText.sanitize($0)))" } ?? ""
            return "\(RFC3339.string(time)) channel \(channel) round \(round) began\(named)"
        case let .story(channel, round, story, time):
            return "\(RFC3339.string(time)) channel \(channel)\(label(round)) is \(TerminalText.sanitize(story.title))"
        case let .timer(channel, round, deadline, time):
            let what = deadline.map { "reveals at \(RFC3339.string($0))" } ?? "has no timer any more"
            return "\(RFC3339.string(time)) channel \(channel)\(label(round)) \(what)"
        case let .settled(channel, round, story, agreed, time):
            let named = story.map { " (\(TerminalText.sanitize($0.title)))" } ?? ""
            return "\(RFC3339.string(time)) channel \(channel)\(label(round))\(named) settled at \(agreed)"
        }
    }

    private static func label(_ round: RoundNumber?) -> String { round.map { " round \($0)" } ?? "" }

    private static func face(_ mark: Tally.Mark) -> String {
        switch mark {
        case .waiting: "no card"
        case .hidden: "a hidden card"
        case .observing: "observing"
        case let .shown(card): card.description
        }
    }
}

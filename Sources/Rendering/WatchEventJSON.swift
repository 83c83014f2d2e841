import EstimatorKit

/// The `watch --json` line for a change: one object, keys in a fixed order.
///
/// Peer events (`joined`, `card`, `voted`, `stale`, `back`, `left`) have
/// exactly `event, channel, round, name, card, cardRaw, rssi, heard, time,
/// role, app, cut, story`.
/// `card` is what the table shows: named as in `packet decode --json` (`"8"`,
/// `"0.5"`, `"?"`, `"coffee"`, `"waiting"`, `"none"`, or `null` for an
/// unknown byte), `"hidden"` (with `cardRaw` null) for a vote not yet
/// revealed, or `"observing"` (with `cardRaw` null); `role` is `"voter"` or
/// `"observer"`. `revealed` has `event, channel, round, cards, without,
/// time, story`, each card `{name, card, cardRaw}`, `without` the names of
/// those present who had not voted; `round` has `event, channel, round,
/// title, time`; `story` (the round has a story, from the room's meeting)
/// has `event, channel, round, story, time`; `settled` (the round has an
/// agreed estimate) has `event, channel, round, story, agreed, time`;
/// `timer` (the round's timer set, changed, or taken off before an
/// agreement) has `event, channel, round, deadline, time`, `deadline` RFC
/// 3339 or null.
/// `story` is the round's, as the room's meeting says: `{key, summary}`
/// (the key null when there is none) or null; `agreed` a card. `round` is
/// the channel's round (0–15) or `null`, `rssi` is dBm or
/// `null`, `heard` is how the peer is heard (`"air"`, `"relay"` or
/// `"both"`), `time` is RFC 3339 in UTC, `app` is `true` for an app user
/// (whose name an iPhone may have cut, and who sees no rounds), and `cut`
/// is `true` for a name that arrived cut (`name` is then its whole
/// characters, possibly none). Names and titles are sanitised as the table
/// shows them (`TerminalText`): a script that prints a field (`jq -r .name`)
/// writes nothing a terminal acts on (docs/PROTOCOL.md, Hostile input).
public enum WatchEventJSON {
    /// The JSON object for `change`, on one line.
    public static func line(_ change: WatchChange) -> String { object(change).text }

    /// The JSON object for `change`.
    public static func object(_ change: WatchChange) -> JSONValue {
        let object: JSONValue
        switch change {
        case let .peer(event, mark, round, story, heard):
            let (card, raw) = fields(mark)
            object = [
                "event": .string(change.eventName),
                "channel": .int(Int(event.channel.rawValue)),
                "round": number(round),
                "name": .string(TerminalText.sanitize(event.name)),
                "card": card,
                "cardRaw": raw,
                "rssi": event.rssi.map(JSONValue.int) ?? .null,
                "heard": .string(heard.rawValue),
                "time": .string(RFC3339.string(event.time)),
                "role": .string(mark == .observing ? "observer" : "voter"),
                "app": .bool(event.id.isApp),
                "cut": .bool(event.id.isNameCut),
                "story": story?.json ?? .null,
            ]
        case let .revealed(channel, tally, story, time):
            let cards: [JSONValue] = tally.entries.compactMap { entry in
                guard case let .shown(card) = entry.mark else { return nil }
                return ["name": .string(TerminalText.sanitize(entry.name)), "card": .string(card.name), "cardRaw": .string(card.hex)]
            }
            object = [
                "event": .string("revealed"), "channel": .int(Int(channel.rawValue)), "round": number(tally.round),
                "cards": .array(cards), "without": .array(tally.waitingFor.map { .string(TerminalText.sanitize($0.name)) }),
                "time": .string(RFC3339.string(time)), "story": story?.json ?? .null,
            ]
        case let .round(channel, round, title, time):
            object = [
                "event": .string("round"), "channel": .int(Int(channel.rawValue)), "round": number(round),
                "title": .string(title.map(TerminalText.sanitize)), "time": .string(RFC3339.string(time)),
            ]
        case let .story(channel, round, story, time):
            object = [
                "event": .string("story"), "channel": .int(Int(channel.rawValue)), "round": number(round),
                "story": story.json, "time": .string(RFC3339.string(time)),
            ]
        case let .timer(channel, round, deadline, time):
            object = [
                "event": .string("timer"), "channel": .int(Int(channel.rawValue)), "round": number(round),
                "deadline": deadline.map { .string(RFC3339.string($0)) } ?? .null, "time": .string(RFC3339.string(time)),
            ]
        case let .settled(channel, round, story, agreed, time):
            object = [
                "event": .string("settled"), "channel": .int(Int(channel.rawValue)), "round": number(round),
                "story": story?.json ?? .null, "agreed": .string(agreed.name), "time": .string(RFC3339.string(time)),
            ]
        }
        return object
    }

    private static func number(_ round: RoundNumber?) -> JSONValue { round.map { .int(Int($0.value)) } ?? .null }

    private static func fields(_ mark: Tally.Mark) -> (JSONValue, JSONValue) {
        switch mark {
        case .waiting: (.string(Card.waiting.name), .string(Card.waiting.hex))
        case .hidden: (.string("hidden"), .null)
        case .observing: (.string("observing"), .null)
        case let .shown(card): (.string(card.name), .string(card.hex))
        }
    }
}
